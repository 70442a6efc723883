"""Shared test setup: no test ever touches the real data folder."""

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own RUM500_HOME (game log, tokens), inherited by the processes
    it starts; a test that sets its own overrides this one."""
    monkeypatch.setenv("RUM500_HOME", str(tmp_path_factory.mktemp("rum500-home")))
