"""Saved Cursor agent runs told apart from every other reader's files, found under a folder,
and read to the end whatever hostile lines they hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolview.cli.session_hosts import HOSTS, host
from toolview.contract import Observation, ToolResult
from toolview.hosts.cursor import load_observations, session_files, sniff
from toolview.hosts.sessions import SessionNote

from .events import RUN, call, init, lines, said

HOSTS_DIR = Path(__file__).parent.parent
OTHERS = [
    next((HOSTS_DIR / "claude_code" / "real").glob("*.jsonl")),
    next((HOSTS_DIR / "codex" / "real").rglob("*.jsonl")),
    next((HOSTS_DIR / "copilot" / "real").rglob("events.jsonl")),
    next((HOSTS_DIR / "gemini" / "real").rglob("*.jsonl")),
    next((HOSTS_DIR / "qwen" / "real").rglob("*.jsonl")),
]
# Claude Code's own ``-p --output-format stream-json`` starts with an init event too
# (code.claude.com/docs/en/headless): it lists its tools and version; not Cursor's.
CLAUDE_INIT = json.dumps(
    {**init(), "tools": ["Bash"], "mcp_servers": [], "claude_code_version": "2.0.0"}
).encode()


def test_a_saved_run_is_cursors_alone() -> None:
    head = RUN.read_bytes()[:4096]
    assert sniff(head)
    claimed = [n for n in HOSTS if n != "cursor" and (r := host(n)) and r.sniff(head)]
    assert claimed == []


@pytest.mark.parametrize("other", OTHERS, ids=lambda p: p.parts[-4])
def test_no_other_readers_session_is_claimed(other: Path) -> None:
    assert not sniff(other.read_bytes()[:65536])


def test_claude_codes_stream_json_and_near_misses_are_not_claimed() -> None:
    assert not sniff(CLAUDE_INIT + b"\n")
    assert not sniff(b'{"type":"system","subtype":"init"}\n')  # no session
    assert not sniff(b"not json at all\n" + RUN.read_bytes())
    assert not sniff(b"")


def test_session_files_lists_only_runs(tmp_path: Path) -> None:
    (tmp_path / "p" / "agent-transcripts").mkdir(parents=True)
    (tmp_path / "p" / "agent-transcripts" / "t.jsonl").write_text('{"role":"user"}\n')
    (tmp_path / "run.jsonl").write_bytes(RUN.read_bytes())
    assert session_files(tmp_path) == [tmp_path / "run.jsonl"]


def test_hostile_lines_are_notes_and_the_rest_is_read(tmp_path: Path) -> None:
    huge = "x" * 6_000_000  # past the 4 MiB a line is read whole
    data = (
        lines(init(), said("user", "go"))
        + b"{not json\n"
        + b"\xff\xfe\x00 binary\n"
        + b'{"type": "tool_call", "subtype": "completed"}\n'
        + lines(
            *call(
                "a",
                "shellToolCall",
                {"command": "cat big"},
                {"success": {"exitCode": 0, "stdout": huge}},
            )
        )
        + b"[" * 100_000
        + b"\n"
        + lines(*call("b", "readToolCall", {"path": "f"}, {"success": {"content": "ok"}}))
    )
    (tmp_path / "run.jsonl").write_bytes(data)
    out = list(load_observations(tmp_path / "run.jsonl"))
    notes = [o.text for o in out if isinstance(o, SessionNote)]
    assert len(notes) == 4 and all("run.jsonl line " in n for n in notes)
    results = {o.tool_call_id: o for o in out if isinstance(o, ToolResult)}
    assert set(results) == {"a", "b"} and not results["b"].is_error
    assert len(results["a"].text) < 100_000  # windowed, the cut said on it
    assert results["a"].descriptor is not None and results["a"].descriptor.truncated
    assert all(isinstance(o, (Observation, SessionNote)) for o in out)
