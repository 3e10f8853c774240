"""Fixtures for the Gemini CLI host: a fresh run of the REAL Gemini CLI against the scripted
Gemini server (tests/scripted_agents), and the committed chat files (real/, fixtures/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripted_agents.cli_run import checked_run
from scripted_agents.gemini_cli import GEMINI_BIN, GeminiRun, run_gemini

HERE = Path(__file__).resolve().parent
REAL = HERE / "real" / "tmp"
FIXTURES = HERE / "fixtures"


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> GeminiRun:
    """One scripted session through ``gemini -p`` (shared: it takes a few seconds)."""
    return checked_run(GEMINI_BIN, "the Gemini CLI", run_gemini, tmp_path_factory)
