"""The scripted session that makes the real Claude Code CLI use every tool.

One run covers what issue 14 asks of a real session: Bash with a 3,000-line
output, a failing Bash command, Bash output over 30,000 characters (stored
under ``tool-results/``), Read (text and a PNG), Write, Edit, Grep and Glob
(in one parallel turn), TodoWrite twice, an ``Agent`` sub-agent that runs a
tool itself, thinking and plain text. Fake secrets sit in the files the agent
reads and cats, so the safety tests can check they are redacted.

``make_fixture`` runs it to regenerate the committed fixture (real/README.md).
"""

from __future__ import annotations

import base64
from pathlib import Path

from .claude_cli import ClaudeRun, run_claude
from .scripted_anthropic import ToolUse, Turn

__all__ = [
    "AWS_KEY",
    "CALLS",
    "GITHUB_TOKEN",
    "MAIN",
    "PROMPT",
    "SUB",
    "SUB_CALLS",
    "lanes",
    "run_real_session",
    "workspace_files",
]

AWS_KEY = "AKIAQX7TZ2MPL4RN8VWE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYq9Zt2Lm4Rk"
GITHUB_TOKEN = "ghp_Zq3Xw9LmT4vB8nR2kP6sD1fH7jC5gY0aE3uQ"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
    "AAAABJRU5ErkJggg=="
)
MAIN = "MAIN-SESSION"
SUB = "SUB-AGENT-TASK"
PROMPT = f"{MAIN}: tidy up this workspace and report."


def workspace_files() -> dict[str, bytes]:
    """The workspace the agent works in: code, a secrets file, an image."""
    secrets = f"AWS_ACCESS_KEY_ID={AWS_KEY}\nAWS_SECRET_ACCESS_KEY={AWS_SECRET}\n"
    app = f'import os\n\nTOKEN = "{GITHUB_TOKEN}"\n\n\ndef main():\n    print("hello")\n'
    return {
        "app.py": app.encode(),
        "util.py": b"def helper():\n    return 42\n",
        "config/secrets.env": secrets.encode(),
        "pixel.png": PNG,
    }


def _todos(*statuses: str) -> dict[str, object]:
    names = ("Survey the workspace", "Write the notes", "Ask a sub-agent to count files")
    return {
        "todos": [
            {"content": name, "status": status, "activeForm": f"Doing: {name.lower()}"}
            for name, status in zip(names, statuses, strict=True)
        ]
    }


def _bash(command: str, description: str) -> dict[str, object]:
    return {"command": command, "description": description}


def _call(call_id: str, name: str, args: dict[str, object]) -> tuple[ToolUse, ...]:
    return (ToolUse(call_id, name, args),)


NOTES = "# Notes\n\nstatus: draft\n"
SUB_PROMPT = f"{SUB}: count the Python files in the workspace and say how many."

# (call id, tool) in the order the main agent calls them.
CALLS = (
    ("toolu_01todo", "TodoWrite"),
    ("toolu_02seq", "Bash"),
    ("toolu_03fail", "Bash"),
    ("toolu_04cat", "Bash"),
    ("toolu_05read", "Read"),
    ("toolu_06write", "Write"),
    ("toolu_07edit", "Edit"),
    ("toolu_08grep", "Grep"),
    ("toolu_09glob", "Glob"),
    ("toolu_10png", "Read"),
    ("toolu_11big", "Bash"),
    ("toolu_12agent", "Agent"),
    ("toolu_13todo", "TodoWrite"),
)
SUB_CALLS = (("toolu_s1ls", "Bash"),)


def lanes() -> dict[str, list[Turn]]:
    """The main agent's turns and the sub-agent's, told apart by their prompts."""
    main = [
        Turn(
            thinking="The user wants the workspace tidied. I should plan with a todo list.",
            text="I'll start by listing what to do.",
            calls=_call("toolu_01todo", "TodoWrite", _todos("in_progress", "pending", "pending")),
        ),
        Turn(calls=_call("toolu_02seq", "Bash", _bash("seq 1 3000", "Print 3,000 lines"))),
        Turn(calls=_call("toolu_03fail", "Bash", _bash("ls /no/such/dir", "List a missing dir"))),
        Turn(calls=_call("toolu_04cat", "Bash", _bash("cat config/secrets.env", "Show config"))),
        Turn(calls=_call("toolu_05read", "Read", {"file_path": "{ws}/app.py"})),
        Turn(
            text="Writing the notes.",
            calls=_call("toolu_06write", "Write", {"file_path": "{ws}/notes.md", "content": NOTES}),
        ),
        Turn(
            calls=_call(
                "toolu_07edit",
                "Edit",
                {"file_path": "{ws}/notes.md", "old_string": "draft", "new_string": "final"},
            )
        ),
        Turn(
            thinking="Search for functions and Python files at once.",
            calls=(
                ToolUse("toolu_08grep", "Grep", {"pattern": "def ", "output_mode": "content"}),
                ToolUse("toolu_09glob", "Glob", {"pattern": "**/*.py"}),
            ),
        ),
        Turn(calls=_call("toolu_10png", "Read", {"file_path": "{ws}/pixel.png"})),
        Turn(
            calls=_call(
                "toolu_11big",
                "Bash",
                _bash("seq 100000 105000; cat config/secrets.env", "Print a long listing"),
            )
        ),
        Turn(
            calls=_call(
                "toolu_12agent",
                "Agent",
                {
                    "description": "Count Python files",
                    "prompt": SUB_PROMPT,
                    "subagent_type": "general-purpose",
                },
            )
        ),
        Turn(calls=_call("toolu_13todo", "TodoWrite", _todos(*["completed"] * 3))),
        Turn(text="Done: notes written, 2 Python files, and config/secrets.env holds keys."),
    ]
    sub = [
        Turn(
            thinking="List the Python files with a shell command.",
            calls=_call("toolu_s1ls", "Bash", _bash("ls *.py | wc -l", "Count Python files")),
        ),
        Turn(text="There are 2 Python files: app.py and util.py."),
    ]
    return {SUB: sub, MAIN: main}


def with_workspace(turns: dict[str, list[Turn]], workspace: Path) -> dict[str, list[Turn]]:
    """Fill the ``{ws}`` placeholder of file paths with the real workspace."""

    def fill(call: ToolUse) -> ToolUse:
        args = {
            key: value.replace("{ws}", str(workspace)) if isinstance(value, str) else value
            for key, value in call.input.items()
        }
        return ToolUse(call.id, call.name, args)

    return {
        lane: [Turn(t.text, t.thinking, tuple(map(fill, t.calls)), t.gate) for t in items]
        for lane, items in turns.items()
    }


def run_real_session(home: Path) -> ClaudeRun:
    """Run the whole scripted session to its end in ``home``."""
    scripted = with_workspace(lanes(), home / "workspace")
    with run_claude(home, scripted, PROMPT, files=workspace_files()) as run:
        return run
