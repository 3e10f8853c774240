"""Fixtures that run the REAL Claude Code CLI (from tests/node) against the scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest

from .claude_cli import ClaudeRun
from .real_session import run_real_session
from .tasks_session import run_tasks_session

FIXTURE = Path(__file__).parent / "real"


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> ClaudeRun:
    """One full scripted session, run once per module (the CLI takes seconds)."""
    return run_real_session(tmp_path_factory.mktemp("claude-home"))


MAIN_SESSION = FIXTURE / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
TASKS_SESSION = FIXTURE / "d4bcab06-3388-4364-a88a-ecbbddedf62a.jsonl"


@pytest.fixture(scope="session")
def fixture_session() -> Path:
    """The committed main session (see real/README.md)."""
    return MAIN_SESSION


@pytest.fixture(scope="module")
def tasks_run(real_run: ClaudeRun) -> ClaudeRun:
    """The task-tools session, run once per module after the main one in its HOME
    (as ``make_fixture`` does: it edits a file the main session wrote)."""
    return run_tasks_session(real_run.home)
