"""Fixtures for the Codex host: the committed real rollouts, and a fresh run of the REAL
Codex CLI against the scripted Responses server (tests/scripted_agents)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripted_agents.cli_run import checked_run
from scripted_agents.codex_cli import CODEX_BIN, CodexRun, run_codex

REAL = Path(__file__).resolve().parent / "real"


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> CodexRun:
    """One scripted session through ``codex exec`` (shared: it takes a few seconds)."""
    return checked_run(CODEX_BIN, "the Codex CLI", run_codex, tmp_path_factory)


@pytest.fixture
def fixture_sessions() -> Path:
    """The committed rollouts' sessions folder (main session + its sub-agent's)."""
    return REAL / "sessions"
