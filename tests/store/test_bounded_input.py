"""``rum500 import`` reads at most the size limit from any source, and ``export`` never
overwrites a file unasked (issue 22 §2)."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rum500.cli import main
from rum500.store import Journal

from .conftest import play

#: address space the import process may use: several times what it needs to read the 16 MiB
#: limit, far less than reading /dev/zero or an endless pipe to the end would take
MEMORY_CAP = 1024 * 1024 * 1024


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def rum500_capped(
    home: Path, *argv: str, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``rum500 ARGV`` as a real process whose memory is capped (a read without a bound
    fails there with a MemoryError instead of eating the machine)."""
    env = {**os.environ, "RUM500_HOME": str(home.parent)}
    env.pop("LANGUAGE", None)
    return subprocess.run(
        [sys.executable, "-m", "rum500", "--lang", "en", *argv],
        capture_output=True,
        text=True,
        timeout=240,
        stdin=stdin,
        env=env,
        preexec_fn=_cap_memory,
    )


def assert_one_line_too_large(r: subprocess.CompletedProcess[str], name: str) -> None:
    assert r.returncode == 1, r.stderr[-2000:]
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr[-2000:]
    assert lines[0].startswith(f"rum500: {name} is too large to be a rum500 match"), lines


@pytest.mark.timeout(300)
def test_import_from_a_device_reads_at_most_the_limit(home: Path) -> None:
    assert_one_line_too_large(rum500_capped(home, "import", "/dev/zero"), "/dev/zero")


@pytest.mark.timeout(300)
def test_import_from_the_standard_input_reads_at_most_the_limit(home: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        r = rum500_capped(home, "import", "-", stdin=zero.fileno())
    assert_one_line_too_large(r, "-")


@pytest.mark.timeout(300)
def test_import_from_an_endless_fifo_reads_at_most_the_limit(home: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "match.fifo"
    os.mkfifo(fifo)
    written = [0]

    def writer() -> None:  # writes until the reader closes its end
        chunk = b"{" * 65536
        with contextlib.suppress(OSError), open(fifo, "wb") as f:
            while True:
                f.write(chunk)
                written[0] += len(chunk)

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    r = rum500_capped(home, "import", str(fifo))
    t.join(60)
    assert not t.is_alive()
    assert_one_line_too_large(r, str(fifo))
    assert written[0] < 64 * 1024 * 1024  # the reader stopped at the limit and closed


def test_deeply_nested_json_is_refused_in_one_line(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "deep.json"
    f.write_text("[" * 200_000)
    assert main(["import", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"rum500: {f} is not a rum500 match file (nested too deeply)"]


def _one_match(home: Path) -> None:
    with Journal() as j:
        play(j, 1, ["Ann", "Bob"])


def test_export_refuses_to_overwrite_a_file_without_force(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_match(home)
    target = tmp_path / "match.json"
    target.write_text("my notes\n")
    assert main(["export", "1", str(target)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"rum500: {target} already exists: nothing was written (--force writes over it)"
    ]
    assert target.read_text() == "my notes\n"
    assert main(["export", "1", str(target), "--force"]) == 0
    assert capsys.readouterr().out == f"game 1 written to {target}\n"
    assert '"format": "rum500-match"' in target.read_text()


def test_export_onto_a_folder_says_so_with_or_without_force(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_match(home)
    folder = tmp_path / "adir"
    folder.mkdir()
    for force in ([], ["--force"]):
        assert main(["export", "1", str(folder), *force]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.splitlines() == [
            f"rum500: cannot write {folder}: it is a folder (name a file in it, e.g. "
            f"{folder / 'match.json'})"
        ]
    assert not list(tmp_path.glob(".rum500-export-*")) and list(folder.iterdir()) == []


def test_export_to_a_new_file_needs_no_force(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_match(home)
    target = tmp_path / "new.json"
    assert main(["export", "1", str(target)]) == 0
    assert target.exists()
