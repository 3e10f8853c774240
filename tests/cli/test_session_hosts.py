"""Readers as plug-ins: an installed ``toolview.readers`` entry point is read like a built-in.

Real child processes, a real distribution on the path (``reader_plugins``):
the docs' tinyagent reader appears in ``toolview sessions``, renders with
``toolview show`` and is followed line by line from standard input — with no
change to toolview; a broken plug-in is said and skipped, never the others'
end; a record the reader does not know is a note, never a crash or a drop.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_sessions import session, write
from reader_plugins import install, tinyagent_session, toolview

from toolview.hosts.codex import session_files

ONE = "11111111-aaaa-4bbb-8ccc-000000000001"
CODEX = Path(__file__).parents[1] / "hosts" / "codex" / "real" / "sessions"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    write(tmp_path / ".claude" / "projects" / "-work-proj" / f"{ONE}.jsonl", session(ONE, "hi", 2))
    tinyagent_session(tmp_path / ".tinyagent" / "sessions" / "tiny-1.jsonl")
    return tmp_path


def test_an_installed_reader_lists_its_sessions_beside_the_built_ins(home: Path) -> None:
    done = toolview(home, install(home / "site"), "sessions", "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["agent"]: row for row in map(json.loads, done.stdout.splitlines())}
    assert set(rows) == {"claude-code", "tinyagent"}
    tiny = rows["tinyagent"]
    assert (tiny["id"], tiny["calls"], tiny["failures"]) == ("tiny-1", 2, 1)
    assert tiny["firstPrompt"] == "list the files" and tiny["unreadableLines"] == 0


def test_without_the_plug_in_its_sessions_are_not_listed(home: Path) -> None:
    done = toolview(home, None, "sessions", "--json")
    assert [json.loads(row)["agent"] for row in done.stdout.splitlines()] == ["claude-code"]


def test_show_renders_a_plug_in_session_by_its_file_and_by_its_id(home: Path) -> None:
    site = install(home / "site")
    path = home / ".tinyagent" / "sessions" / "tiny-1.jsonl"
    for target in (str(path), "tiny-1"):
        done = toolview(home, site, "show", "--surface", "text", target)
        assert done.returncode == 0, done.stderr
        assert "ls /nope" in done.stdout and "No such file" in done.stdout
        assert "README.md" in done.stdout and "list the files" in done.stdout


def test_show_of_a_folder_heads_a_plug_in_session_with_the_agent_s_own_name(home: Path) -> None:
    done = toolview(home, install(home / "site"), "show", "--surface", "text", str(home))
    assert done.returncode == 0, done.stderr
    assert "══ Tiny Agent session tiny-1 · .tinyagent/sessions/tiny-1.jsonl ══" in done.stdout
    assert f"══ Claude Code session {ONE}" in done.stdout


def test_a_broken_plug_in_is_said_and_skipped(home: Path) -> None:
    done = toolview(home, install(home / "site", broken=True), "sessions", "--json")
    assert done.returncode == 0, done.stderr
    assert {json.loads(row)["agent"] for row in done.stdout.splitlines()} == {
        "claude-code",
        "tinyagent",
    }
    assert "reader plug-in 'broken'" in done.stderr and "skipped" in done.stderr
    assert "broken_reader_absent" in done.stderr


@pytest.mark.parametrize(
    ("hostile", "said"),
    [
        (b'{"type": "tinyagent.newthing", "x": 1}', "'tinyagent.newthing' is not shown"),
        (b"[1, 2, 3]", "a JSON array, not an object"),
        (b"\xff\xfe not utf-8", "not JSON"),
        (b'{"type": "tinyagent.result", "id": "nobody"}', "the unknown call 'nobody'"),
    ],
    ids=["unknown-type", "array", "bytes", "orphan-result"],
)
def test_a_line_the_reader_cannot_map_is_a_note_and_the_rest_is_drawn(
    home: Path, hostile: bytes, said: str
) -> None:
    site = install(home / "site")
    path = tinyagent_session(home / "work" / "tiny-2.jsonl", hostile)
    for target in (str(path), "-"):  # the file (``load``), standard input (the mapper)
        done = toolview(home, site, "show", "--surface", "text", target, stdin=path)
        assert done.returncode == 0, done.stderr
        assert "note: " in done.stdout and said in done.stdout
        assert "README.md" in done.stdout  # the calls after the hostile line are drawn
        assert "2 calls: 1 succeeded, 1 failed" in done.stdout


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_built_in_reader_notes_a_record_type_it_does_not_know(home: Path, agent: str) -> None:
    """From its file and from standard input (line by line: ``map_lines`` takes the notes)."""
    if agent == "codex":
        (source,) = session_files(CODEX)
        lines = source.read_bytes().splitlines(keepends=True)
        said = "a Codex record type 'brand_new' is not shown"
    else:
        source = home / ".claude" / "projects" / "-work-proj" / f"{ONE}.jsonl"
        lines = source.read_bytes().splitlines(keepends=True)
        said = "a Claude Code record of type 'brand_new' is not shown"
    planted = write(home / "work" / source.name, [lines[0], b'{"type":"brand_new"}\n', *lines[1:]])
    for target in (str(planted), "-"):
        done = toolview(home, None, "show", "--surface", "text", target, stdin=planted)
        assert done.returncode == 0, done.stderr
        assert "note: " in done.stdout and said in done.stdout, target
        assert "── " in done.stdout and " calls" in done.stdout  # drawn to its summary
