"""The suite's own guards (tests/conftest.py, tests/capability.py) can fail: a host error
fails the test that caused it unless the test says it provokes one, and in CI a missing
capability fails instead of skipping. Each is run in a pytest of its own (``pytester``)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text()


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytest run with this suite's conftest (and ``tests.capability`` importable)."""
    pytester.makeconftest(CONFTEST)
    pytester.makeini(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
        "markers =\n    allow_host_errors: provokes host errors\n"
    )
    monkeypatch.delenv("CI", raising=False)
    return pytester


ERRORS = """
import logging
import pytest

def test_logs_an_error_from_a_host_catch_all():
    try:
        raise RuntimeError("a bug the catch-all hides")
    except RuntimeError:
        logging.getLogger("rum500.host").exception("the bot of seat 1 failed")

def test_logs_an_error_from_a_child_of_the_server():
    logging.getLogger("net.server.conn").error("connection failed")

def test_a_warning_that_hides_a_test_assertion():
    logging.getLogger("rum500.host").warning("journal failed (AssertionError: order)")

def test_a_plain_warning_is_fine():
    logging.getLogger("rum500.host").warning("could not update the LAN announcement")

def test_other_loggers_are_not_the_host():
    logging.getLogger("rum500.tui").error("the screen is too small")

def _in_callback(filename):
    import asyncio

    code = "def boom():\\n    raise RuntimeError('lost in a callback')\\n"
    ns = {}
    exec(compile(code, filename, "exec"), ns)

    async def main():
        asyncio.get_running_loop().call_soon(ns["boom"])
        await asyncio.sleep(0.01)

    asyncio.run(main())

def test_an_exception_of_the_host_only_the_event_loop_saw():
    _in_callback("/somewhere/net/server.py")

def test_an_exception_of_other_code_in_the_event_loop():
    _in_callback("/somewhere/rum500/tui/app.py")

@pytest.mark.allow_host_errors
def test_marked_tests_may_provoke_errors(host_errors):
    logging.getLogger("net.server").error("provoked")
    assert [r.getMessage() for r in host_errors] == ["provoked"]
"""


@pytest.mark.allow_host_errors  # the inner run's errors are logged in this process too
def test_a_host_error_fails_the_test(inner: pytest.Pytester) -> None:
    inner.makepyfile(test_errors=ERRORS)
    handlers = list(logging.getLogger("rum500.host").handlers)  # this test's own guard
    result = inner.runpytest_inprocess("-p", "no:cacheprovider")
    outcomes = {r.nodeid.split("::")[1]: r.outcome for r in _reports(result)}
    assert outcomes == {
        "test_logs_an_error_from_a_host_catch_all": "failed",
        "test_logs_an_error_from_a_child_of_the_server": "failed",
        "test_a_warning_that_hides_a_test_assertion": "failed",
        "test_a_plain_warning_is_fine": "passed",
        "test_other_loggers_are_not_the_host": "passed",
        "test_an_exception_of_the_host_only_the_event_loop_saw": "failed",
        "test_an_exception_of_other_code_in_the_event_loop": "passed",
        "test_marked_tests_may_provoke_errors": "passed",
    }
    result.stdout.fnmatch_lines(["*the host logged errors during this test*"])
    result.stdout.fnmatch_lines(["*RuntimeError: a bug the catch-all hides*"])
    # the guard leaves the loggers as it found them
    assert logging.getLogger("rum500.host").handlers == handlers


SKIPS = """
import pytest
from tests import capability

def test_needs_namespaces():
    capability.missing("needs root for network namespaces")

def test_skipped_by_hand():
    pytest.skip("tmux is not installed")

def test_has_what_it_needs():
    capability.require(None)

@pytest.mark.xfail(reason="known")
def test_expected_failure():
    assert False
"""


@pytest.mark.parametrize("ci", [False, True], ids=["elsewhere", "ci"])
def test_a_missing_capability_fails_only_in_ci(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: bool
) -> None:
    inner.makepyfile(
        test_skips=SKIPS,
        test_whole_module=(
            "import pytest\n"
            "pytest.skip('tmux is not installed', allow_module_level=True)\n"
            "def test_never_runs():\n    pass\n"
        ),
    )
    if ci:
        monkeypatch.setenv("CI", "true")
    result = inner.runpytest_inprocess("-p", "no:cacheprovider", "-rA")
    missing = "failed" if ci else "skipped"
    outcomes = {r.nodeid.split("::")[1]: r.outcome for r in _reports(result)}
    assert outcomes == {
        "test_needs_namespaces": missing,
        "test_skipped_by_hand": missing,
        "test_has_what_it_needs": "passed",
        "test_expected_failure": "skipped",  # an xfail stays an xfail
    }
    collected = result.reprec.getreports("pytest_collectreport")  # type: ignore[attr-defined]
    whole = [r for r in collected if r.nodeid.endswith("test_whole_module.py")]
    assert [r.outcome for r in whole] == ["skipped"]  # its tests never exist, but …
    if ci:
        result.stdout.fnmatch_lines(["*CI lacks a capability*network namespaces*"])
        result.stdout.fnmatch_lines(["*CI lacks a capability*tmux is not installed*"])
        alone = inner.runpytest_inprocess("-p", "no:cacheprovider", "test_whole_module.py")
        assert alone.ret == pytest.ExitCode.TESTS_FAILED  # … the run fails all the same
    else:
        assert result.ret == 0


def _reports(result: pytest.RunResult) -> list[pytest.TestReport]:
    """One report per test: its call phase, or the phase that decided it."""
    out: dict[str, pytest.TestReport] = {}
    for r in result.reprec.getreports("pytest_runtest_logreport"):  # type: ignore[attr-defined]
        if r.when == "call" or r.outcome != "passed" or r.nodeid not in out:
            if r.nodeid in out and out[r.nodeid].outcome == "failed":
                continue
            out[r.nodeid] = r
    return list(out.values())
