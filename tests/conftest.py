"""Shared test setup: no test ever touches the real data folder; no host error passes silently;
in CI, a test skipped for a missing capability fails the run."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import pytest

from tests.capability import in_ci

#: the host's loggers (and their children) whose errors fail a test
HOST_LOGGERS = ("rum500.host", "rum500.runners", "net.server")
#: the host's modules: an exception from their code that only the event loop saw (a task
#: that died, a callback that raised) is a host error too
HOST_FILES = (
    *(
        str(Path("rum500", "host", f.name))
        for f in Path(__file__).parent.parent.joinpath("rum500", "host").glob("*.py")
    ),
    str(Path("rum500", "runners.py")),
    str(Path("net", "server.py")),
)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own RUM500_HOME (game log, tokens), inherited by the processes
    it starts; a test that sets its own overrides this one."""
    monkeypatch.setenv("RUM500_HOME", str(tmp_path_factory.mktemp("rum500-home")))


class HostErrors(logging.Handler):
    """Collects what the host's catch-alls would otherwise hide: a record at ERROR or worse,
    any record with a traceback (``exc_info``), a warning that reports an ``AssertionError``
    (a test's own assertion inside a hook the host called and caught), and an exception of
    the host's code that only the event loop's own catch-all saw (``asyncio`` logger)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "asyncio":
            if record.exc_info and _raised_in_host(record.exc_info[2]):
                self.records.append(record)
            return
        if (
            record.levelno >= logging.ERROR
            or record.exc_info is not None
            or (record.levelno >= logging.WARNING and "AssertionError" in record.getMessage())
        ):
            self.records.append(record)

    def report(self) -> str:
        lines = []
        for r in self.records:
            lines.append(f"{r.name} {r.levelname}: {r.getMessage()}")
            if r.exc_info:
                lines.append(logging.Formatter().formatException(r.exc_info))
        return "\n".join(lines)


def _raised_in_host(tb: TracebackType | None) -> bool:
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(HOST_FILES):
            return True
        tb = tb.tb_next
    return False


@pytest.fixture
def host_errors(_host_errors: HostErrors) -> list[logging.LogRecord]:
    """The host errors logged so far in this test (for tests marked ``allow_host_errors``)."""
    return _host_errors.records


@pytest.fixture(autouse=True)
def _host_errors(request: pytest.FixtureRequest) -> Iterator[HostErrors]:
    """Fail the test when the host logged an error during it (see :class:`HostErrors`):
    a catch-all that keeps a game going must not keep a broken host's tests green."""
    handler = HostErrors()
    loggers = [logging.getLogger(name) for name in (*HOST_LOGGERS, "asyncio")]
    saved = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        if logger.getEffectiveLevel() > logging.WARNING:
            logger.setLevel(logging.WARNING)
    try:
        yield handler
    finally:
        for logger, level in zip(loggers, saved, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)
    if handler.records and request.node.get_closest_marker("allow_host_errors") is None:
        pytest.fail(
            "the host logged errors during this test (mark it allow_host_errors if it "
            "provokes them on purpose):\n" + handler.report(),
            pytrace=False,
        )


def _skip_fails_in_ci(report: pytest.TestReport) -> None:
    """In CI a skip means a capability is missing (namespaces, tmpfs, unshare, tmux, root):
    the test fails, saying which, instead of passing with it left out."""
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        report.outcome = "failed"
        report.longrepr = f"CI lacks a capability this test needs: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    _skip_fails_in_ci(outcome.get_result())


#: modules skipped whole at import time in CI (their tests never exist to fail one by one)
_SKIPPED_MODULES: list[str] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    _SKIPPED_MODULES.clear()


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if in_ci() and report.skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        _SKIPPED_MODULES.append(f"{report.nodeid}: {reason}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in _SKIPPED_MODULES:
        terminalreporter.write_line(f"CI lacks a capability this module needs: {line}", red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The other tests still run; the run as a whole fails."""
    if _SKIPPED_MODULES and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
