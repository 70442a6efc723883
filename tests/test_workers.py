"""A worker process ends with the process that started it, however that one ends: a table
screen, ``rum500 analyse --jobs`` or ``rum500 sim --jobs`` killed outright (kill -9) leaves
no process behind (rum500/workers.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

#: each script starts its pool, prints its workers' process ids, then waits to be killed
SCRIPTS = {
    "the table screen's worker": """
        import os, time
        from rum500.tui.worker import Worker
        if __name__ == "__main__":  # (spawn imports this script again in the worker)
            w = Worker()
            print(w.pool().submit(os.getpid).result(), flush=True)
            time.sleep(600)
    """,
    "analyse --jobs": """
        import multiprocessing, os, time
        from rum500.coach.analysis import analyse_seats
        from rum500.coach.selfplay import bot_record
        record = bot_record(["random", "random"], 1, hands=1)
        said = []
        def progress(done, total):  # in the parent, while the workers analyse
            if done and not said:
                said.append(1)
                print(*[p.pid for p in multiprocessing.active_children()], flush=True)
                time.sleep(600)
        analyse_seats(record, [0, 1], budget=8, jobs=2, progress=progress)
    """,
    "sim --jobs": """
        import multiprocessing, os, time
        from rum500.sim import run_matches, tasks
        if __name__ == "__main__":
            for result in run_matches(tasks(8, 2, ["random"], 1, 500, 1), 2):
                print(*[p.pid for p in multiprocessing.active_children()], flush=True)
                time.sleep(600)
    """,
}


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_a_worker_ends_when_its_parent_is_killed(name: str, tmp_path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(SCRIPTS[name]))
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert pids and all(alive(p) for p in pids)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        for _ in range(300):  # gone in well under a second; a hung worker stays for ever
            if not any(alive(p) for p in pids):
                break
            time.sleep(0.1)
        left = [p for p in pids if alive(p)]
        for p in left:
            os.kill(p, signal.SIGKILL)
        assert not left, f"{name}: workers {left} outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
