"""``rum500 verify FILE`` (rum500/store/verify.py): a match a real host dealt with
commitments, logged by its game log and exported, checks hand by hand; a single card moved
in one hand's stock, or a wrong secret, fails naming the hand; an older match dealt from its
seed says "not committed"; the export still imports."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rum500.cli import main
from rum500.client import RumClient
from rum500.host import HostConfig, start_host
from rum500.rules import Options
from rum500.store import Journal
from rum500.store.matchfile import canonical
from tests.net.util import play_as_bot

from .conftest import play


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def _resign(file: Path, doc: dict) -> None:
    doc["sha256"] = hashlib.sha256(canonical(doc["match"])).hexdigest()
    file.write_text(json.dumps(doc))


async def _hosted_match(home: Path) -> None:
    """A match on a real host (no fixed seed: committed deals) against a real client, with
    the host's game log."""
    journal = Journal()
    host = await start_host(
        HostConfig(
            players=2,
            bots=1,
            bot_level="random",
            options=Options(target=400),
            review_timeout=0.2,
            contribution_wait=0.3,
            journal=journal,
        )
    )
    client = await RumClient.connect(host.address, host.port, name="Ann")
    try:
        host.start_now()
        await play_as_bot(client)
    finally:
        await client.close()
        await host.close()
        journal.close()


@pytest.fixture
async def exported(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    await _hosted_match(home)
    file = tmp_path / "match.json"
    assert run(capsys, "export", "1", str(file))[0] == 0
    return file


async def test_an_exported_match_checks_hand_by_hand(
    exported: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = json.loads(exported.read_text())
    hands = len(doc["match"]["deals"])
    assert hands >= 2
    code, out = run(capsys, "verify", str(exported))
    assert code == 0, out
    for k in range(1, hands + 1):
        assert f"hand {k}: deal checked" in out
    assert f"{hands} of {hands} hands checked" in out
    monkeypatch.setenv("RUM500_HOME", str(tmp_path / "elsewhere"))
    code, out = run(capsys, "import", str(exported))
    assert code == 0, out  # and it still imports


async def test_a_card_moved_in_one_hands_stock_fails_naming_it(
    exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(exported.read_text())
    stock = doc["match"]["deals"][1]["stock"]  # hand 2
    stock.insert(5, stock.pop(0))  # the top card moved down five places
    _resign(exported, doc)
    code, out = run(capsys, "verify", str(exported))
    assert code == 1
    assert "hand 1: deal checked" in out
    assert "hand 2: NOT CHECKED: the file's deal is not the one the match was played from" in out
    moved, top = stock[5], stock[0]
    assert f"stock card 1 from the top is {top}, the match was played with {moved}" in out
    code, out = run(capsys, "--lang", "ru", "verify", str(exported))  # in the player's language
    assert code == 1 and "кон 2: НЕ ПРОВЕРЕНО" in out, out
    assert f"карта колоды 1 сверху — {top}, а партия сыграна с {moved}" in out, out


async def test_a_wrong_secret_fails_naming_the_hand(
    exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(exported.read_text())
    deals = [e for e in doc["match"]["actions"] if e["action"]["type"] == "deal"]
    deals[1]["action"]["secret"] = "ab" * 32  # hand 2's
    _resign(exported, doc)
    code, out = run(capsys, "verify", str(exported))
    assert code == 1
    assert "hand 1: deal checked" in out
    assert "hand 2: NOT CHECKED: wrong secret" in out


async def test_an_edited_file_without_a_new_checksum_fails(
    exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(exported.read_text())
    doc["match"]["deals"][0]["upcard"] = "XX"
    exported.write_text(json.dumps(doc))
    code, out = run(capsys, "verify", str(exported))
    assert code == 1
    assert "fails its checksum" in out and "hand 1: NOT CHECKED" in out


async def test_verify_reads_the_standard_input(
    exported: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rum500 verify -`` reads the match from the standard input and calls it so."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(exported.read_bytes())))
    code, out = run(capsys, "verify", "-")
    assert code == 0, out
    assert out.splitlines()[-1].startswith("standard input: ") and "hands checked" in out


def test_an_older_match_says_not_committed(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal() as j:
        game = play(j, 1)
    file = tmp_path / "old.json"
    assert run(capsys, "export", "1", str(file))[0] == 0
    doc = json.loads(file.read_text())
    del doc["match"]["deals"]  # as an older rum500 wrote it
    _resign(file, doc)
    code, out = run(capsys, "verify", str(file))
    assert code == 0, out
    assert out.count("not committed") == len(game.results)
    assert f"0 of {len(game.results)} hands checked" in out
    assert "there was nothing to check" in out


def test_a_file_that_is_no_match_is_one_line_on_stderr_as_import_says_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Verify reads a file with ``rum500 import``'s words (truncated, newer, not a match),
    one line on stderr, exit status 2."""
    cut = tmp_path / "cut.json"
    cut.write_text('{"format": "rum500-match", "version": 1, "match": {"uid": "a')
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": "rum500-match", "version": 99}))
    for file, words in (
        (cut, "is truncated or not a rum500 match file (JSON error at line 1"),
        (newer, "was written by a newer rum500 (format version 99"),
        (tmp_path / "none.json", "cannot read"),
    ):
        assert main(["verify", str(file)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and words in err, err
