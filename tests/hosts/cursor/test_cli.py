"""A saved Cursor agent run through ``show`` (a path, standard input, every surface),
``sessions --cursor``, ``doctor`` and ``check --strict``: every call drawn, hostile
lines notes, planted secrets and terminal escapes never out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripted_agents.surfaces import shown_and_checked, toolview
from toolview.contract import ToolResult

from .events import RUN, call, init, lines, said

SECRET = "AKIAZ7EXAMPLE3QR5MN8"  # planted in the fixture's failing shell output


def _hostile(tmp_path: Path) -> Path:
    """The fixture, then lines a hostile or broken run could hold."""
    planted = {"success": {"exitCode": 0, "stdout": f"key={SECRET}\n\x1b]0;pwned\x07\x1b[2J"}}
    extra = lines(
        said("assistant", "<script>alert(1)</script> \x1b[31mred\x1b[0m"),
        *call("h1", "shellToolCall", {"command": "env"}, planted),
        {"type": "hologram", "session_id": "s"},
    )
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(RUN.read_bytes() + b"{broken\n" + b"\x00\x01 not json\n" + extra)
    return path


def test_show_json_passes_check_strict_with_every_call() -> None:
    observations = shown_and_checked(RUN)
    results = [o for o in observations if isinstance(o, ToolResult)]
    assert len(results) == 10 and sum(r.is_error for r in results) == 2


@pytest.mark.parametrize("surface", ["text", "terminal", "markdown", "html"])
def test_every_surface_draws_it_safely(surface: str, tmp_path: Path) -> None:
    shown = toolview("show", "--surface", surface, str(_hostile(tmp_path)))
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout.decode()
    assert SECRET not in out and "\x1b]0;" not in out and "\x1b[2J" not in out
    assert surface != "html" or "<script>alert" not in out
    assert all(said in out for said in ("3 open issues", "round(x, 2)", "Fix rounding")), out
    assert "skipped" in out or "not JSON" in out  # the broken lines said, not dropped


def test_standard_input_is_told_as_a_cursor_run() -> None:
    shown = toolview("show", "--surface", "text", "-", stdin=RUN.read_bytes())
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout.decode()
    assert text.count(" — Success") == 8 and text.count(" — Error") == 2
    assert SECRET not in text


def test_sessions_lists_it_and_show_finds_it_under_home(tmp_path: Path) -> None:
    project = tmp_path / ".cursor" / "projects" / "shop"
    project.mkdir(parents=True)
    shutil.copy(RUN, project / "fix-rounding.jsonl")
    listed = toolview("sessions", "--no-cache", "--cursor", str(tmp_path / ".cursor"))
    assert listed.returncode == 0, listed.stderr
    (row,) = [r for r in listed.stdout.decode().splitlines() if " cursor " in r]
    assert row.startswith("fix-roun") and " 10 " in row and "Fix the failing" in row
    env = {**os.environ, "HOME": str(tmp_path)}
    command = [sys.executable, "-m", "toolview", "show", "fix-round", "--surface", "text"]
    shown = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count(" — Error") == 2


def test_doctor_checks_its_event_types(tmp_path: Path) -> None:
    shutil.copy(RUN, tmp_path / "run.jsonl")
    novel = {"type": "hologram", "session_id": "s"}
    (tmp_path / "odd.jsonl").write_bytes(lines(init(), said("user", "go"), novel, novel))
    done = toolview("doctor", "--json", "--cursor", str(tmp_path))
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    (row,) = [r for r in rows if r["agent"] == "cursor"]
    assert row["checked"] is True and row["sessions"] == 2
    assert list(row["unmapped"]) == ["hologram"] and row["unmapped"]["hologram"]["count"] == 2


def test_an_agent_transcript_is_refused_not_drawn_wrong(tmp_path: Path) -> None:
    """Cursor's own transcripts (``agent-transcripts/<uuid>.jsonl``) are unpublished: no
    reader claims one, so ``show`` says it cannot tell the format."""
    part = {"type": "tool_use", "name": "Shell", "input": {"command": "ls"}}
    record = {"role": "assistant", "message": {"content": [{"type": "text", "text": "hi"}, part]}}
    path = tmp_path / "0b9d7c1e-2f34-4a56-8b78-9c0d1e2f3a4b.jsonl"
    path.write_text(json.dumps(record) + "\n")
    shown = toolview("show", "--surface", "text", str(path))
    assert shown.returncode != 0 and b"cannot tell the input's format" in shown.stderr
