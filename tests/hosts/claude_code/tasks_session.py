"""A second scripted session: the task tools, a background Bash and a tool error.

By default (no ``CLAUDE_CODE_ENABLE_TASKS=0``) Claude Code 2.1.197 offers the
task tools (TaskCreate, TaskUpdate, TaskList, TaskGet) instead of TodoWrite;
the host maps both to the ``todo`` kind, so both need a real session. This
one also starts a Bash in the background (a background task id), reads a
missing file (an error) and edits a file it has not read (an error in a
``<tool_use_error>`` wrapper).

``make_fixture`` runs it after the main session, in the same HOME and workspace.
"""

from __future__ import annotations

from pathlib import Path

from .claude_cli import ClaudeRun, run_claude
from .scripted_anthropic import ToolUse, Turn

__all__ = ["TASKS", "TASK_CALLS", "run_tasks_session", "tasks_lanes"]

TASKS = "TASKS-SESSION"

# (call id, tool) in the order the agent calls them.
TASK_CALLS = (
    ("toolu_t1create", "TaskCreate"),
    ("toolu_t2create", "TaskCreate"),
    ("toolu_t3update", "TaskUpdate"),
    ("toolu_t4bg", "Bash"),
    ("toolu_t5missing", "Read"),
    ("toolu_t5edit", "Edit"),
    ("toolu_t6update", "TaskUpdate"),
    ("toolu_t7list", "TaskList"),
    ("toolu_t8get", "TaskGet"),
)


def _one(call_id: str, name: str, args: dict[str, object], text: str = "") -> Turn:
    return Turn(text=text, calls=(ToolUse(call_id, name, args),))


def tasks_lanes(workspace: Path) -> dict[str, list[Turn]]:
    """The agent's turns: two tasks, work on them (one call fails), list them."""
    build = {"subject": "Build", "description": "Run the build", "activeForm": "Building"}
    test = {"subject": "Test", "description": "Run the tests", "activeForm": "Testing"}
    background = {
        "command": "echo started; sleep 1; echo finished",
        "description": "Build in the background",
        "run_in_background": True,
    }
    # notes.md exists (the main session wrote it) but this session never read it
    unread = {"file_path": str(workspace / "notes.md"), "old_string": "final", "new_string": "x"}
    return {
        TASKS: [
            _one("toolu_t1create", "TaskCreate", build, "Planning two tasks."),
            _one("toolu_t2create", "TaskCreate", test),
            _one("toolu_t3update", "TaskUpdate", {"taskId": "1", "status": "in_progress"}),
            _one("toolu_t4bg", "Bash", background),
            _one("toolu_t5missing", "Read", {"file_path": str(workspace / "missing.txt")}),
            _one("toolu_t5edit", "Edit", unread),
            _one("toolu_t6update", "TaskUpdate", {"taskId": "1", "status": "completed"}),
            _one("toolu_t7list", "TaskList", {}),
            _one("toolu_t8get", "TaskGet", {"taskId": "2"}),
            Turn(text="Build done; tests still pending."),
        ]
    }


def run_tasks_session(home: Path) -> ClaudeRun:
    """Run the task-tools session to its end in ``home`` (task tools on: the default)."""
    lanes = tasks_lanes(home / "workspace")
    prompt = f"{TASKS}: build and test."
    with run_claude(home, lanes, prompt, tasks=True) as run:
        return run
