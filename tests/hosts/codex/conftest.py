"""Fixtures for the Codex host: the committed real rollouts, and a fresh run of the REAL
Codex CLI against the scripted Responses server (tests/scripted_agents)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripted_agents.codex_cli import CODEX_BIN, CodexRun, run_codex

REAL = Path(__file__).resolve().parent / "real"


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> CodexRun:
    """One scripted session through ``codex exec`` (shared: it takes a few seconds)."""
    if not CODEX_BIN.exists():
        pytest.fail(f"the Codex CLI is not installed under {CODEX_BIN}: run scripts/bootstrap")
    run = run_codex(tmp_path_factory.mktemp("codex"))
    assert run.returncode == 0, run.stderr[-4000:]
    return run


@pytest.fixture
def fixture_sessions() -> Path:
    """The committed rollouts' sessions folder (main session + its sub-agent's)."""
    return REAL / "sessions"
