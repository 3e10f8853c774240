"""The REAL Claude Code CLI with ``toolview hook claude-code`` as its PermissionRequest hook.

A scripted model asks for a Bash call that needs permission; the CLI runs the
hook, which publishes the waiting call to the session's thread on a real
``toolview serve --watch``; a decision posted over HTTP answers it. Allow: the
command runs. Deny: the model is told, with the message. Learnt from 2.1.197:
``claude -p`` alone refuses such a call without running the hook; the hook
runs where a prompt could be answered — here the SDK's stream-json mode with
``--permission-prompt-tool stdio``, which this test leaves unanswered, so the
hook is what decides.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from scripted_agents.hook_waiting import published_waiting
from toolview.cli import main

from .claude_cli import claude_env, require_claude
from .live import serve_watch
from .scripted_anthropic import Script, ToolUse, Turn, serve

COMMAND = 'python3 -c \'open("ran.txt", "w").write("ran")\''
CALL = "toolu_01hookbash"


def _settings(home: Path, url: str) -> None:
    """The hook in the user's settings, installed as docs/approvals.md says."""
    settings = str(home / ".claude" / "settings.json")
    assert main(["hooks", "install", "--claude", "--settings", settings, "--to", url]) == 0


def _run(home: Path, script_url: str) -> subprocess.Popen[str]:
    command = [require_claude(), "-p", "--input-format", "stream-json"]
    command += ["--output-format", "stream-json", "--verbose", "--permission-prompt-tool", "stdio"]
    claude = subprocess.Popen(
        command,
        cwd=home / "workspace",
        env=claude_env(home, script_url),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert claude.stdin is not None
    ask = {"type": "user", "message": {"role": "user", "content": "HOOKED: write the file"}}
    claude.stdin.write(json.dumps(ask) + "\n")
    claude.stdin.flush()
    return claude


def _result(claude: subprocess.Popen[str]) -> dict[str, Any]:
    """Read the CLI's stream to its result (a control request stays unanswered: the hook wins)."""
    assert claude.stdout is not None and claude.stdin is not None
    for line in claude.stdout:
        message = json.loads(line)
        if message.get("type") == "result":
            claude.stdin.close()
            claude.wait(timeout=60)
            return dict(message)
    raise AssertionError("the CLI ended without a result")


@pytest.mark.parametrize(
    "body", [{"decision": "allow"}, {"decision": "deny", "message": "not today"}]
)
def test_a_decision_in_the_viewer_answers_claude_codes_permission_request(
    tmp_path: Path, body: dict[str, str]
) -> None:
    def decide(url: str, thread: str) -> None:
        decided = httpx.post(f"{url}/api/threads/{thread}/calls/{CALL}/decision", json=body)
        assert decided.status_code == 201

    hooked(tmp_path, body, decide)


def hooked(tmp_path: Path, body: dict[str, str], decide: Callable[[str, str], None]) -> None:
    """The real CLI asks for the Bash call; ``decide(server URL, thread)`` answers its wait.

    Then what ``body`` decided must have happened (``_check``).
    """
    home = tmp_path / "home"
    (home / "workspace").mkdir(parents=True)
    (home / "tmp").mkdir()
    projects = home / ".claude" / "projects"
    projects.mkdir(parents=True)
    server = serve_watch(tmp_path, projects)
    try:
        _settings(home, server.url)
        calls = (ToolUse(CALL, "Bash", {"command": COMMAND}),)
        lanes = {"HOOKED": [Turn(text="writing", calls=calls), Turn(text="done")]}
        with serve(lanes) as (script_url, script):
            claude = _run(home, script_url)
            try:
                thread, waiting = published_waiting(server.url)
                assert thread.startswith("claude-")
                assert [(w["toolCallId"], w["args"]["command"]) for w in waiting] == [
                    (CALL, COMMAND)
                ]
                decide(server.url, thread)
                _result(claude)
            finally:
                if claude.poll() is None:
                    claude.kill()
            _check(home, script, body)
    finally:
        server.kill()


def _check(home: Path, script: Script, body: dict[str, str]) -> None:
    ran = (home / "workspace" / "ran.txt").exists()
    told = script.tool_results[CALL]
    if body["decision"] == "allow":
        assert ran and not told.get("is_error")
    else:
        assert not ran and told.get("is_error") and "not today" in json.dumps(told["content"])
