"""Regenerate the committed real sessions: ``python -m tests.hosts.claude_code.make_fixture DIR``.

Both scripted sessions run in ONE temporary HOME and workspace, as a user's
two sessions in one project would; the project folder the CLI wrote
(``HOME/.claude/projects/<project>/``) is then copied whole into DIR.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from .claude_cli import ClaudeRun
from .real_session import run_real_session
from .tasks_session import run_tasks_session

__all__ = ["copy_project", "make_fixture"]


def copy_project(run: ClaudeRun, target: Path) -> None:
    """Copy the run's one project folder (sessions, sub-agents, tool-results) into ``target``."""
    (project,) = [path for path in run.projects.iterdir() if path.is_dir()]
    shutil.copytree(project, target, dirs_exist_ok=True)


def make_fixture(target: Path) -> None:
    """Run the main session, then the task-tools session, and copy what they wrote."""
    with tempfile.TemporaryDirectory(prefix="claude-home-") as scratch:
        home = Path(scratch)
        run_real_session(home)
        copy_project(run_tasks_session(home), target)


if __name__ == "__main__":
    make_fixture(Path(sys.argv[1]))
