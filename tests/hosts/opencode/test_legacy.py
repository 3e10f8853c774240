"""OpenCode's legacy JSON storage (before 1.2): listed, opened, drawn, and never led astray.

The fixture (legacy/, its README names the source) is a top-level session with a
shell call that exits 2, a ``task`` whose sub-agent session (``parentID``) runs a
``glob``, a ``read`` that errors, and a closing answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripted_agents.surfaces import drawn_everywhere
from toolview.contract import ToolCall, ToolResult
from toolview.hosts.opencode import load_observations, load_session, session_files, top_sessions
from toolview.hosts.sessions import SessionNote

LEGACY = Path(__file__).resolve().parent / "legacy"
TOP = "ses_4d58a1b2cffeLegacyTop0001"
KID = "ses_4d58a0c3dffeLegacyKid0002"
PROJECT = "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750"
REPLY = "msg_b2a7c0003001Assistant0003"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A copy of the committed storage (a test may spoil its copy, never legacy/)."""
    shutil.copytree(LEGACY / "storage", tmp_path / "storage")
    return tmp_path


def toolview(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "toolview", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, check=False)


def _top(data: Path) -> Path:
    return data / "storage" / "session" / PROJECT / f"{TOP}.json"


def test_only_the_top_session_is_a_line_and_its_sub_agent_is_nested(data: Path) -> None:
    files = session_files(data)
    assert sorted(p.name for p in files) == [f"{KID}.json", f"{TOP}.json"]
    assert session_files(data / "storage") == files
    listed = [entry for path in files for entry in top_sessions(path)]
    assert listed == [(TOP, 1760000090.0)]
    seen = list(load_session(_top(data), TOP))
    calls = [o for o in seen if isinstance(o, ToolCall)]
    assert [(c.tool_call_id, c.parent_call_id or None) for c in calls] == [
        ("toolu_01", None), ("toolu_02", None), ("toolu_k1", "toolu_02"), ("toolu_03", None)
    ]  # fmt: skip
    results = {o.tool_call_id: o.is_error for o in seen if isinstance(o, ToolResult)}
    assert results == {"toolu_01": True, "toolu_02": False, "toolu_k1": False, "toolu_03": True}
    assert [o for o in seen if isinstance(o, SessionNote)] == []


def test_every_call_drawn_on_every_surface(data: Path) -> None:
    drawn = ("make", "missing test", "exit code 2", "tests/**", "File not found", "Fixed:")
    drawn_everywhere(load_observations(_top(data)), drawn)


def test_show_json_is_check_strict_clean_and_sessions_lists_its_facts(data: Path) -> None:
    shown = toolview("show", "--json", "--opencode", str(data), TOP)
    assert shown.returncode == 0, shown.stderr
    checked = toolview("check", "--strict", "-", stdin=shown.stdout)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    listed = toolview("sessions", "--json", "--opencode", str(data))
    assert listed.returncode == 0, listed.stderr
    (line,) = [json.loads(each) for each in listed.stdout.splitlines()]
    assert (line["id"], line["title"], line["project"]) == (TOP, "Fix the failing build", "proj")
    assert (line["calls"], line["failures"], line["subAgentCalls"]) == (3, 2, 1)
    assert line["models"] == ["anthropic/claude-sonnet-4"]
    assert line["start"] == "2025-10-09T08:53:21.000Z"


def _spoil(data: Path, how: str) -> Path:
    """The closing answer's text part replaced by something hostile."""
    part = next((data / "storage" / "part" / REPLY).glob("*a.json"))
    part.unlink()
    if how == "bad json":
        part.write_text('{"type": "text", "text": ')
    elif how == "link out":
        outside = data / "secret.json"
        outside.write_text(json.dumps({"type": "text", "text": "SECRET-OUTSIDE"}))
        part.symlink_to(outside)
    elif how == "huge":
        part.write_text(json.dumps({"type": "text", "text": "x" * (10 * 1024 * 1024)}))
    elif how == "fifo":
        os.mkfifo(part)
    return part


@pytest.mark.parametrize("how", ["bad json", "huge", "fifo"])
def test_a_hostile_part_is_a_note_never_followed_nor_blocking(data: Path, how: str) -> None:
    _spoil(data, how)
    seen = list(load_observations(_top(data)))
    notes = [o.text for o in seen if isinstance(o, SessionNote)]
    assert len(notes) == 1 and "could not be read" in notes[0], notes
    assert len([o for o in seen if isinstance(o, ToolCall)]) == 4


def test_a_link_out_of_the_storage_is_never_followed(data: Path) -> None:
    _spoil(data, "link out")
    folder = data / "storage" / "part" / "msg_b2a7c0002001Assistant0002"
    moved = data / "elsewhere"
    folder.rename(moved)
    folder.symlink_to(moved)  # a whole message's parts behind a link
    kid_link = data / "storage" / "session" / "linked"
    kid_link.symlink_to(data / "storage" / "session" / PROJECT)  # a project folder behind one
    seen = list(load_observations(_top(data)))
    drawn = json.dumps([repr(o) for o in seen])
    assert "SECRET-OUTSIDE" not in drawn and "toolu_01" not in drawn
    assert len(session_files(data)) == 2


def test_doctor_reads_the_legacy_parts_and_a_sub_agent_s_own_file_opens(data: Path) -> None:
    others = [arg for name in ("claude", "codex", "gemini", "qwen", "copilot", "cursor")
              for arg in (f"--{name}", str(data / "none"))]  # fmt: skip
    doctor = toolview("doctor", "--json", "--opencode", str(data), *others)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert (
        '"records": 9' in doctor.stdout.decode() and '"unreadable": 1' not in doctor.stdout.decode()
    )
    kid = next((data / "storage" / "session").glob(f"*/{KID}.json"))
    calls = [o.tool_call_id for o in load_observations(kid) if isinstance(o, ToolCall)]
    assert calls == ["toolu_k1"]


def test_a_half_written_temporary_file_is_no_part(data: Path) -> None:
    """OpenCode writes each file as ``.oc-<name>.<pid>.<ms>.tmp`` then renames it: one left
    behind (a crash) is not read as a second copy of the part."""
    folder = data / "storage" / "part" / REPLY
    part = next(folder.glob("*a.json"))
    (folder / f".oc-{part.name}.123.456.tmp").write_bytes(part.read_bytes())
    said = [o for o in load_observations(_top(data)) if "Fixed:" in repr(o)]
    assert len(said) == 1
