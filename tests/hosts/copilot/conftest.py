"""Fixtures for the Copilot CLI host: a fresh run of the REAL Copilot CLI against the
scripted OpenAI-compatible model (tests/hosts/pi/model_server.py)."""

from __future__ import annotations

import pytest

from scripted_agents.cli_run import checked_run

from .copilot_cli import COPILOT_BIN, CopilotRun, run_copilot


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> CopilotRun:
    """One scripted session through ``copilot -p`` (shared: it takes a few seconds)."""
    return checked_run(COPILOT_BIN, "Copilot CLI", run_copilot, tmp_path_factory)
