"""Fixtures for the OpenCode host: a fresh run of the REAL OpenCode CLI against the scripted
model server (tests/scripted_agents/opencode_cli.py), and the committed database (real/)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scripted_agents.cli_run import checked_run
from scripted_agents.opencode_cli import OPENCODE_BIN, OpenCodeRun, run_opencode

HERE = Path(__file__).resolve().parent
REAL = HERE / "real" / "opencode.db"


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> OpenCodeRun:
    """One scripted session through ``opencode run`` (shared: it takes ~20 s)."""
    return checked_run(OPENCODE_BIN, "OpenCode", run_opencode, tmp_path_factory)


@pytest.fixture
def real_db(tmp_path: Path) -> Path:
    """A copy of the committed database (a test may write to its copy, never to real/)."""
    copy = tmp_path / "opencode.db"
    shutil.copy(REAL, copy)
    return copy
