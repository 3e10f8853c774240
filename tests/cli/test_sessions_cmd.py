"""``toolview sessions``: the agents' sessions, newest first, one cleaned line each.

The real command in a child process, ``HOME`` a temporary folder holding
small Claude Code sessions (``claude_sessions``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from claude_sessions import SECRET, session, toolview, user, write

ONE = "11111111-aaaa-4bbb-8ccc-000000000001"
TWO = "22222222-aaaa-4bbb-8ccc-000000000002"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    project = tmp_path / ".claude" / "projects" / "-work-proj"
    prompt = f"fix the build\x1b[31m, token {SECRET}\nand say " + "why " * 100
    one = write(project / f"{ONE}.jsonl", session(ONE, prompt, 2, 1))
    two = write(project / f"{TWO}.jsonl", session(TWO, "second session", 3))
    os.utime(one, (1_000_000, 1_000_000))
    os.utime(two, (2_000_000, 2_000_000))
    return tmp_path


def test_one_line_each_newest_first(home: Path) -> None:
    done = toolview(home, "sessions")
    assert done.returncode == 0, done.stderr
    header, first, second = done.stdout.splitlines()
    assert header.split()[:3] == ["ID", "AGENT", "START"]
    assert first.startswith("22222222  claude  2026-12-01 10:00") and "second session" in first
    assert first.split()[4:7] == ["7s", "3", "0"]  # duration, calls, failures
    assert second.startswith("11111111") and second.split()[4:7] == ["5s", "2", "1"]
    assert "proj" in second and "KB" in second


def test_the_first_prompt_is_one_clean_redacted_bounded_line(home: Path) -> None:
    line = toolview(home, "sessions").stdout.splitlines()[2]
    assert SECRET not in line and "[redacted" in line
    assert "\x1b" not in line and "fix the build" in line
    assert len(line) < 200 and line.endswith(" w…")


def test_json_is_one_object_per_session(home: Path) -> None:
    done = toolview(home, "sessions", "--json")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["id"] == TWO and first["agent"] == "claude-code"
    assert (first["calls"], first["failures"], first["durationS"]) == (3, 0, 7.0)
    assert first["start"] == "2026-12-01T10:00:00.000Z" and first["project"] == "proj"
    assert second["failures"] == 1 and SECRET not in second["firstPrompt"]
    assert (
        second["sizeBytes"]
        == (home / ".claude/projects/-work-proj" / f"{ONE}.jsonl").stat().st_size
    )


def test_the_folder_can_be_named(home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (home / ".claude" / "projects").rename(elsewhere)
    assert toolview(home, "sessions").stdout == ""
    done = toolview(home, "sessions", "--claude", str(elsewhere))
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3


def test_a_named_folder_that_is_missing_is_an_error(tmp_path: Path) -> None:
    done = toolview(tmp_path, "sessions", "--claude", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and "not a folder" in done.stderr


def test_no_sessions_says_where_it_looked(tmp_path: Path) -> None:
    done = toolview(tmp_path, "sessions")
    assert done.returncode == 0 and done.stdout == ""
    assert "no sessions under" in done.stderr and ".claude" in done.stderr


def test_json_escapes_c1_controls_and_bidi_overrides(tmp_path: Path) -> None:
    """A folder name or a prompt holding U+009B (CSI) or U+202E reaches a terminal
    only as a ``\\uXXXX`` escape; the line reads back to the same strings."""
    hostile = "p\x9b2J\u202eevil\u2066"
    write(
        tmp_path / ".claude" / "projects" / f"-w-{hostile}" / f"{ONE}.jsonl", session(ONE, "hi", 1)
    )
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "sessions", "--json"],
        capture_output=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    assert not any(c in out for c in "\x9b\u202e\u2066"), ascii(out)
    assert "\\u009b" in out and "\\u202e" in out
    assert hostile in json.loads(out)["path"]


def test_the_title_is_the_first_real_prompt_and_a_slash_command_reads_as_typed(
    tmp_path: Path,
) -> None:
    """A slash command's prompt is ``<command-message>`` markup in the file; an injected
    reminder comes first. The listing shows ``/review --fast``, never markup."""
    slash = (
        "<command-message>review is running…</command-message>\n"
        "<command-name>/review</command-name>\n<command-args>--fast</command-args>"
    )
    reminder = json.dumps(user(ONE, 0, "<system-reminder>x</system-reminder>")).encode()
    lines = [reminder + b"\n", *session(ONE, slash, 1)]
    write(tmp_path / ".claude" / "projects" / "-work-proj" / f"{ONE}.jsonl", lines)
    row = toolview(tmp_path, "sessions").stdout.splitlines()[1]
    assert row.endswith("  /review --fast") and "<command" not in row
    (line,) = toolview(tmp_path, "sessions", "--json").stdout.splitlines()
    listed = json.loads(line)
    assert listed["title"] == "/review --fast"
    assert listed["status"] == "done"  # its last record is long past and no run is open


def _ids(home: Path, *words: str) -> list[str]:
    out = toolview(home, "sessions", "--json", *words).stdout
    return [json.loads(line)["id"] for line in out.splitlines()]


def test_project_agent_and_since_filter_the_listing(home: Path) -> None:
    other = home / ".claude" / "projects" / "-work-other"
    three = "33333333-aaaa-4bbb-8ccc-000000000003"
    lines = [line.replace(b"/work/proj", b"/work/other") for line in session(three, "x", 1)]
    write(other / f"{three}.jsonl", lines)
    assert len(_ids(home)) == 3
    assert sorted(_ids(home, "--project", "proj")) == sorted([ONE, TWO])
    assert _ids(home, "--project", "other") == [three]
    assert _ids(home, "--agent", "codex") == [] and len(_ids(home, "--agent", "claude")) == 3
    assert _ids(home, "--since", "2026-12-02") == []
    assert len(_ids(home, "--since", "2026-12-01")) == 3
    done = toolview(home, "sessions", "--since", "yesterday")
    assert done.returncode == 2 and "not a date" in done.stderr
