"""Fixtures that run the REAL Claude Code CLI (from tests/node) against the scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest

from .claude_cli import ClaudeRun
from .real_session import run_real_session

FIXTURE = Path(__file__).parent / "real"


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> ClaudeRun:
    """One full scripted session, run once per module (the CLI takes seconds)."""
    return run_real_session(tmp_path_factory.mktemp("claude-home"))


@pytest.fixture(scope="session")
def fixture_session() -> Path:
    """The committed real session (see real/README.md)."""
    found = sorted(FIXTURE.glob("*.jsonl"))
    assert len(found) == 1, found
    return found[0]
