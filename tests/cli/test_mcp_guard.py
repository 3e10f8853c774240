"""``toolview mcp call --guard``: refused calls never reach the real ``mcp-server-time``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolview.contract import ToolCall, ToolRefused, decode_observation

# Only this command, so each subprocess does not import every other command's runtime.
ENTRY = (
    "import argparse, sys; from toolview.cli import mcp_cmd; "
    "parser = argparse.ArgumentParser(); mcp_cmd.register(parser.add_subparsers()); "
    "args = parser.parse_args(sys.argv[1:]); sys.exit(args.handler(args))"
)
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"
RULES = """\
[[rule]]
action = "deny"
tool = "convert_*"
reason = "no conversions \\u001b]0;pwned\\u0007 today"

[[rule]]
action = "allow"
tool = "*"
"""
CONVERT = {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Europe/Paris"}


@pytest.fixture
def server(tmp_path: Path) -> list[str]:
    """mcp-server-time behind a shell that leaves a mark when it is started at all."""
    if not TIME_SERVER.exists():
        pytest.fail(f"{TIME_SERVER} is missing: run scripts/bootstrap (pip install -e .[test])")
    mark = tmp_path / "server-started"
    return [
        "bash",
        "-c",
        f'touch "{mark}"; exec "$0" "$@"',
        str(TIME_SERVER),
        "--local-timezone",
        "UTC",
    ]


def mcp_call(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY, "mcp", "call", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_a_refused_call_prints_a_receipt_and_calls_nothing(
    tmp_path: Path, server: list[str]
) -> None:
    (tmp_path / "rules.toml").write_text(RULES)
    args = json.dumps(CONVERT)
    done = mcp_call(
        tmp_path, "convert_time", "--args", args, "--guard", "rules.toml", "--", *server
    )
    assert done.returncode == 126, done.stderr
    receipt = done.stdout.lower()  # the surface's receipt: tool, refused, guard, reason
    assert "convert_time" in receipt and "refused" in receipt
    assert "rules.toml" in receipt and "no conversions" in receipt and "today" in receipt
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout  # the reason is cleaned
    assert "+01:00" not in done.stdout and "+02:00" not in done.stdout  # no converted time
    assert not (tmp_path / "server-started").exists()  # the server never even started


def test_an_allowed_call_goes_through(tmp_path: Path, server: list[str]) -> None:
    (tmp_path / "rules.toml").write_text(RULES)
    args = json.dumps({"timezone": "UTC"})
    done = mcp_call(
        tmp_path, "get_current_time", "--args", args, "--guard", "rules.toml", "--", *server
    )
    assert done.returncode == 0, done.stderr
    assert "Success" in done.stdout and '"timezone": "UTC"' in done.stdout
    assert (tmp_path / "server-started").exists()


def test_json_mode_prints_the_refusal_as_observations(tmp_path: Path, server: list[str]) -> None:
    (tmp_path / "rules.toml").write_text(RULES)
    args = json.dumps(CONVERT)
    done = mcp_call(
        tmp_path, "convert_time", "--json", "--args", args, "--guard", "rules.toml", "--", *server
    )
    assert done.returncode == 126
    call, refusal = [decode_observation(line) for line in done.stdout.splitlines()]
    assert isinstance(call, ToolCall) and call.args == CONVERT
    assert isinstance(refusal, ToolRefused) and refusal.tool_call_id == call.tool_call_id
    assert refusal.guard == "rules.toml" and refusal.reason.startswith("no conversions")
    assert not (tmp_path / "server-started").exists()


def test_several_guards_the_first_refusal_wins(tmp_path: Path, server: list[str]) -> None:
    (tmp_path / "allow.toml").write_text('[[rule]]\naction = "allow"\ntool = "*"\n')
    (tmp_path / "deny.toml").write_text('[[rule]]\naction = "deny"\ntool = "get_*"\n')
    done = mcp_call(
        tmp_path,
        "get_current_time",
        "--args",
        '{"timezone": "UTC"}',
        "--guard",
        "allow.toml",
        "--guard",
        "deny.toml",
        "--",
        *server,
    )
    assert done.returncode == 126
    assert "deny.toml" in done.stdout and "denied by rule 1" in done.stdout
    assert not (tmp_path / "server-started").exists()


def test_a_broken_rules_file_names_the_line_and_runs_nothing(
    tmp_path: Path, server: list[str]
) -> None:
    (tmp_path / "bad.toml").write_text('[[rule]]\naction = "deny"\n\n[[rule]]\nacton = "x"\n')
    done = mcp_call(tmp_path, "get_current_time", "--guard", "bad.toml", "--", *server)
    assert done.returncode == 2
    assert "broken guard, nothing was run" in done.stderr and "bad.toml:" in done.stderr
    assert done.stdout == ""
    assert not (tmp_path / "server-started").exists()
    (tmp_path / "syntax.toml").write_text('[[rule]]\naction = "deny"\ntool = "*\n')
    done = mcp_call(tmp_path, "get_current_time", "--guard", "syntax.toml", "--", *server)
    assert done.returncode == 2 and "syntax.toml:3" in done.stderr
    missing = mcp_call(tmp_path, "get_current_time", "--guard", "none.toml", "--", *server)
    assert missing.returncode == 2 and "none.toml: cannot read" in missing.stderr
    assert not (tmp_path / "server-started").exists()
