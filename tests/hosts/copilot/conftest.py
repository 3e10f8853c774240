"""Fixtures for the Copilot CLI host: a fresh run of the REAL Copilot CLI against the
scripted OpenAI-compatible model (tests/hosts/pi/model_server.py)."""

from __future__ import annotations

import pytest

from .copilot_cli import COPILOT_BIN, CopilotRun, run_copilot


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> CopilotRun:
    """One scripted session through ``copilot -p`` (shared: it takes a few seconds)."""
    if not COPILOT_BIN.exists():
        pytest.fail(f"Copilot CLI is not installed under {COPILOT_BIN}: run scripts/bootstrap")
    run = run_copilot(tmp_path_factory.mktemp("copilot"))
    assert run.returncode == 0, run.stderr[-4000:]
    return run
