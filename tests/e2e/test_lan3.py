"""Three machines on one LAN (tests/e2e/lan.py): a table hosted on A is found by ``rum500 list``
on B and on C over real zeroconf, and B sits down at the address it listed. Then the harness's
faults: a cut cable, a silent (blocked) machine, a frozen one and a killed host.

Needs root and ``ip`` (and ``iptables`` for the blocked machine); skipped with the reason
otherwise, failed in CI. Addresses (10.78.0.0/24) exist only inside the namespaces made here."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.e2e import lan
from tests.e2e.lan import RUM500, Lan, Lines

pytestmark = [pytest.mark.e2e, pytest.mark.netns]
lan3 = lan.lan3  # the fixture: three machines on one LAN

CLIENT = textwrap.dedent("""
    import asyncio, json, sys
    from net.client import Client

    async def main(host, port):
        c = await Client.connect(host, port, name="Bea")
        print(json.dumps({"seat": c.seat, "token": bool(c.token)}), flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await c.close()

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
""")

# a TCP connect from one machine to another: "ok", "refused" or "timeout" on stdout
CONNECT = textwrap.dedent("""
    import socket, sys
    try:
        socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=float(sys.argv[3]))
        print("ok")
    except ConnectionRefusedError:
        print("refused")
    except TimeoutError:
        print("timeout")
    except OSError as e:
        print("error", e.errno)
""")


def connect(machine, addr: str, port: int, timeout: float = 2.0) -> str:
    done = machine.call([sys.executable, "-c", CONNECT, addr, str(port), str(timeout)])
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def named(name: str):
    return lambda tables: [t for t in tables if t["name"] == name]


def test_a_table_on_a_is_listed_on_b_and_c_and_b_joins_by_that_address(lan3):
    a, b, c = lan3.machines
    assert [m.addr for m in (a, b, c)] == ["10.78.0.1", "10.78.0.2", "10.78.0.3"]
    host = a.run(
        [*RUM500, "host", "--headless", "--name", "Den", "--players", "3", "--bind", "0.0.0.0"]
    )
    (on_b,) = named("Den")(b.wait_listed(named("Den")))
    (on_c,) = named("Den")(c.wait_listed(named("Den")))
    assert on_b["address"] == on_c["address"] == a.addr
    assert on_b["port"] == on_c["port"] and on_b["seats_taken"] == 0

    client = b.run(
        [sys.executable, "-c", CLIENT, on_b["address"], str(on_b["port"])], stdin=subprocess.PIPE
    )
    assert Lines(client).wait("seat", 60) == {"seat": 0, "token": True}
    # C sees the seat taken: the announcement is one table across the LAN
    c.wait_listed(lambda ts: [t["seats_taken"] for t in named("Den")(ts)] == [1])

    a.kill()  # the host dies (SIGKILL): every process of A is gone
    assert host.poll() == -9 and a.pids() == []
    assert connect(b, a.addr, on_b["port"]) == "refused"  # A's kernel still answers
    assert client.stdin is not None
    client.stdin.close()


def test_cut_block_freeze_and_kill(tmp_path):
    with Lan(2, tmp_path) as two:
        a, b = two.machines
        server = a.run(
            [
                sys.executable,
                "-c",
                textwrap.dedent("""
            import socket
            s = socket.create_server(("0.0.0.0", 5600))
            print("up", flush=True)
            while True:
                s.accept()[0].close()
        """),
            ]
        )
        assert server.stdout is not None and server.stdout.readline() == "up\n"
        assert connect(b, a.addr, 5600) == "ok"
        a.cut()
        assert connect(b, a.addr, 5600) in ("timeout", "error 113")  # no route to host
        assert connect(a, b.addr, 5600).startswith("error")  # A's own sends fail at once
        a.mend()
        assert connect(b, a.addr, 5600) == "ok"
        a.block()
        assert connect(b, a.addr, 5600, 1.0) == "timeout"
        assert connect(b, a.addr, 5601, 1.0) == "timeout"  # silence, not a refusal
        a.unblock()
        assert connect(b, a.addr, 5600) == "ok"
        a.freeze()
        assert connect(b, a.addr, 5600, 1.0) == "ok"  # the kernel still completes the handshake
        a.thaw()
        a.kill()
        assert server.poll() is not None and a.pids() == []
        assert connect(b, a.addr, 5600) == "refused"
        names = [m.ns for m in two.machines] + [two.switch]
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert not any(ns in listed.split() for ns in names)  # every namespace deleted


def test_a_failing_test_leaves_no_namespace_or_process(tmp_path):
    with pytest.raises(RuntimeError, match="the test failed"), Lan(2, tmp_path) as two:
        sleeper = two.machines[1].run(["sleep", "600"])
        names = [m.ns for m in two.machines] + [two.switch]
        raise RuntimeError("the test failed")
    assert sleeper.poll() == -9
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
    assert not set(names) & set(listed)
