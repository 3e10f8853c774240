"""The REAL Codex CLI with ``toolview hook codex`` as its PermissionRequest hook.

A scripted model asks to run a command with escalated permissions; Codex
0.171 runs its ``PermissionRequest`` hooks before its own approval path, and
the hook publishes the waiting call to the session's thread on a real
``toolview serve --watch``; a decision posted over HTTP answers it. Allow: the
command runs. Deny: the command does not run and the model is told, with the
message. Learnt from 0.171: ``codex exec`` forces the approval policy to
``never`` (an escalation is refused with no hook run); ``--approve-for-me``
keeps ``on-request`` with its automatic reviewer, and the hook runs before that
reviewer. ``--dangerously-bypass-hook-trust`` stands in for the person who
reviews the hook once in Codex's ``/hooks`` (docs/approvals.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from scripted_agents.codex_cli import CODEX_BIN, codex_env, write_config
from scripted_agents.hook_waiting import published_waiting
from scripted_agents.scripted_responses import Function, Script, Text, Turn, serve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "wire"))

from toolview_servers import ToolviewServer

from toolview.cli import main

COMMAND = "touch ran.txt"
CALL = "call_hooked"
ESCALATED = {"cmd": COMMAND, "sandbox_permissions": "require_escalated", "justification": "a file"}


def _hook_config(codex_home: Path, url: str) -> None:
    """The hook in the user's config.toml, installed as docs/approvals.md says."""
    config = str(codex_home / "config.toml")
    assert main(["hooks", "install", "--codex", "--settings", config, "--to", url]) == 0


def _told(script: Script) -> str:
    """What the model was given back for the call (its function_call_output)."""
    for body in reversed(script.requests):
        for item in body.get("input", []):
            if item.get("type") == "function_call_output" and item.get("call_id") == CALL:
                return json.dumps(item.get("output"))
    raise AssertionError("the model was never told of the call")


@pytest.mark.parametrize(
    "body", [{"decision": "allow"}, {"decision": "deny", "message": "not on a Friday"}]
)
def test_a_decision_in_the_viewer_answers_codexs_permission_request(
    tmp_path: Path, body: dict[str, str]
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    codex_home = home / ".codex"
    (codex_home / "sessions").mkdir(parents=True)
    workspace.mkdir()
    turns = [Turn((Function(CALL, "exec_command", ESCALATED),)), Turn((Text("done."),))]
    db = str(tmp_path / "log.db")
    watch = ["--port", "0", "--db", db, "--watch", str(codex_home / "sessions")]
    with ToolviewServer.start(watch) as server, serve(turns) as (script_url, script):
        write_config(codex_home, script_url)
        _hook_config(codex_home, server.url)
        argv = [str(CODEX_BIN), "exec", "--skip-git-repo-check", "--approve-for-me"]
        argv += ["--dangerously-bypass-hook-trust", "-C", str(workspace), "write the file"]
        with subprocess.Popen(
            argv, env=codex_env(home, codex_home), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ) as codex:  # fmt: skip
            try:
                thread, waiting = published_waiting(server.url)
                assert thread.startswith("codex-")
                assert [(w["toolCallId"], w["args"]["command"]) for w in waiting] == [
                    (CALL, COMMAND)
                ]
                decided = httpx.post(
                    f"{server.url}/api/threads/{thread}/calls/{CALL}/decision", json=body
                )
                assert decided.status_code == 201
                assert codex.wait(timeout=180) == 0
            finally:
                if codex.poll() is None:
                    codex.kill()
    ran = (workspace / "ran.txt").exists()
    if body["decision"] == "allow":
        assert ran
    else:
        assert not ran and "not on a Friday" in _told(script)
