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


MAIN_SESSION = FIXTURE / "141edb52-bb48-444a-aaca-8b8ec6d87caa.jsonl"
TASKS_SESSION = FIXTURE / "17110ad5-b15f-4ca2-ae83-9644e0f565dc.jsonl"


@pytest.fixture(scope="session")
def fixture_session() -> Path:
    """The committed main session (see real/README.md)."""
    return MAIN_SESSION


@pytest.fixture(scope="module")
def tasks_run(tmp_path_factory: pytest.TempPathFactory) -> ClaudeRun:
    """The task-tools session, run once per module."""
    return run_tasks_session(tmp_path_factory.mktemp("claude-home"))
