"""``toolview show`` on coding-agent sessions: detected, streamed, found by folder or id prefix,
printed as redacted observations with ``--json``; an input it cannot tell is an error.

Each test runs the real ``toolview`` command in a child process, on small
Claude Code sessions written by ``claude_sessions`` (the shape Claude Code
2.1.x writes), with ``HOME`` set to a temporary folder so nothing of the
machine's own sessions is read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from claude_sessions import SECRET, session, write

from toolview.hosts.codex import session_files as codex_session_files

LIMIT = 120.0  # seconds before a hang counts as a failure; the event comes long before
ONE = "11111111-aaaa-4bbb-8ccc-000000000001"
TWO = "22222222-aaaa-4bbb-8ccc-000000000002"
THREE = "11112222-aaaa-4bbb-8ccc-000000000003"


def toolview(
    home: Path, *words: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolview", *words],
        input=None if stdin is None else stdin.decode(),
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env={**os.environ, "HOME": str(home), "NO_COLOR": "1"},
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A home with two Claude Code sessions in one project, ONE older than TWO."""
    project = tmp_path / ".claude" / "projects" / "-work-proj"
    one = write(project / f"{ONE}.jsonl", session(ONE, f"fix the build, token {SECRET}", 2, 1))
    two = write(project / f"{TWO}.jsonl", session(TWO, "second session", 3))
    os.utime(one, (1_000_000, 1_000_000))
    os.utime(two, (2_000_000, 2_000_000))
    return tmp_path


def session_path(home: Path, session_id: str) -> Path:
    return home / ".claude" / "projects" / "-work-proj" / f"{session_id}.jsonl"


@pytest.mark.parametrize("source", ["auto", "claude-code"])
def test_a_claude_code_session_is_drawn_not_refused_line_by_line(home: Path, source: str) -> None:
    done = toolview(
        home, "show", "--surface", "text", "--from", source, str(session_path(home, ONE))
    )
    assert done.returncode == 0, done.stderr
    assert "missing required field" not in done.stdout
    assert "make step-0" in done.stdout and "make step-1" in done.stdout
    assert "exit 1: step 1 failed" in done.stdout and "All done." in done.stdout
    assert SECRET not in done.stdout and "[redacted" in done.stdout


def test_an_input_whose_format_cannot_be_told_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "other.jsonl").write_text('{"some": "record"}\n{"other": 1}\n')
    done = toolview(tmp_path, "show", str(tmp_path / "other.jsonl"))
    assert done.returncode == 2 and done.stdout == ""
    assert "cannot tell the input's format" in done.stderr and "--from" in done.stderr


def test_a_broken_line_is_a_note_and_the_rest_is_drawn(home: Path) -> None:
    lines = session(ONE, "hello", 2)
    path = write(home / "broken.jsonl", [*lines[:2], b"{not json\n", *lines[2:]])
    done = toolview(home, "show", "--surface", "text", str(path))
    assert done.returncode == 0, done.stderr
    assert "line 3" in done.stdout and "make step-1" in done.stdout


def test_a_session_from_stdin_is_read_through_the_mapper(home: Path) -> None:
    data = session_path(home, TWO).read_bytes()
    done = toolview(home, "show", "--surface", "markdown", "-", stdin=data)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("make step-") == 3


def test_a_folder_shows_each_session_under_a_heading_newest_first(home: Path) -> None:
    folder = home / ".claude" / "projects"
    done = toolview(home, "show", "--surface", "text", str(folder))
    assert done.returncode == 0, done.stderr
    headings = [line for line in done.stdout.splitlines() if line.startswith("══")]
    assert len(headings) == 2
    assert TWO in headings[0] and ONE in headings[1]  # newest first
    assert done.stdout.count("── ") == 2  # each session its own summary


def test_a_folder_on_the_html_surface_is_one_page(home: Path) -> None:
    done = toolview(home, "show", "--surface", "html", str(home / ".claude" / "projects"))
    assert done.returncode == 0, done.stderr
    page = done.stdout.lower()
    assert page.count("<!doctype html") == 1 and page.count("</html>") == 1
    assert page.count('<h2 class="tv-session">') == 2


def test_a_folder_without_sessions_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = toolview(tmp_path, "show", str(tmp_path / "empty"))
    assert done.returncode == 2 and "holds no session" in done.stderr


def test_an_id_prefix_finds_the_session(home: Path) -> None:
    done = toolview(home, "show", "--surface", "text", TWO[:6])
    assert done.returncode == 0, done.stderr
    assert "second session" in done.stdout and "══" not in done.stdout


def test_an_id_prefix_is_looked_up_where_claude_says(home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (home / ".claude").rename(elsewhere)
    done = toolview(home, "show", "--surface", "text", "--claude", str(elsewhere), TWO[:6])
    assert done.returncode == 0, done.stderr
    assert "second session" in done.stdout


def test_an_ambiguous_prefix_lists_the_matches(home: Path) -> None:
    write(session_path(home, THREE), session(THREE, "third", 1))
    done = toolview(home, "show", "1111")
    assert done.returncode == 2 and done.stdout == ""
    assert "ambiguous" in done.stderr and ONE in done.stderr and THREE in done.stderr


def test_an_unknown_id_says_where_it_looked(home: Path) -> None:
    done = toolview(home, "show", "deadbeef")
    assert done.returncode == 2
    assert "no such file, nor a session id" in done.stderr and ".claude" in done.stderr


def test_json_is_redacted_observations_that_check_accepts(home: Path, tmp_path: Path) -> None:
    lines = session(ONE, f"fix the build, token {SECRET}", 2, 1)
    path = write(tmp_path / "s.jsonl", [*lines[:2], b"[1, 2]\n", *lines[2:]])
    done = toolview(home, "show", "--json", str(path))
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout and "[redacted" in done.stdout
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["kind"] for r in records].count("tool-call") == 2
    assert all("at" in r for r in records)
    assert "line 3" in done.stderr  # the unreadable line, said where it cannot break the output
    out = tmp_path / "out.jsonl"
    out.write_text(done.stdout)
    checked = toolview(home, "check", "--strict", str(out))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_json_of_a_folder_is_every_session_s_observations(home: Path) -> None:
    done = toolview(home, "show", "--json", str(home / ".claude" / "projects"))
    assert done.returncode == 0, done.stderr
    kinds = [json.loads(line)["kind"] for line in done.stdout.splitlines()]
    assert kinds.count("tool-call") == 5


def test_the_first_call_is_drawn_while_the_session_is_still_being_written(home: Path) -> None:
    lines = session_path(home, TWO).read_bytes().splitlines(keepends=True)
    child = subprocess.Popen(
        [sys.executable, "-m", "toolview", "show", "--surface", "text", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "HOME": str(home)},
    )
    assert child.stdin is not None and child.stdout is not None
    seen, out = threading.Event(), bytearray()

    def read() -> None:
        assert child.stdout is not None
        while chunk := child.stdout.read1(65536):
            out.extend(chunk)
            if b"step 0 ok" in out:
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    child.stdin.writelines(lines[:3])  # the prompt, the first call and its result
    child.stdin.flush()
    try:
        assert seen.wait(LIMIT), f"nothing of the first call before the input ended: {out!r}"
        assert b"make step-1" not in out
        child.stdin.writelines(lines[3:])
    finally:
        child.stdin.close()
    assert child.wait(LIMIT) == 0
    reader.join(LIMIT)
    assert b"make step-2" in out


def peak_rss_kib(home: Path, path: Path) -> int:
    """The child's peak resident set, from the kernel's own accounting (``wait4``)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "toolview", "show", "--surface", "text", str(path)],
        stdout=subprocess.PIPE,
        env={**os.environ, "HOME": str(home)},
    )
    assert child.stdout is not None
    while child.stdout.read(1 << 16):
        pass
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0
    return usage.ru_maxrss


def test_memory_does_not_grow_with_the_session(tmp_path: Path) -> None:
    small = write(tmp_path / "small.jsonl", session(ONE, "small", 300))
    large = write(tmp_path / "large.jsonl", session(TWO, "large", 6000))
    small_kib, large_kib = peak_rss_kib(tmp_path, small), peak_rss_kib(tmp_path, large)
    assert large_kib <= 1.5 * small_kib, f"{large_kib} KiB for 6,000 calls vs {small_kib} KiB"


REAL = Path(__file__).parents[1] / "hosts"
CLAUDE_REAL = REAL / "claude_code" / "real"  # written by the real Claude Code 2.1.197
CODEX_REAL = REAL / "codex" / "real" / "sessions"  # written by the real Codex CLI 0.171.0
WITH_AGENT = CLAUDE_REAL / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"


def test_depth_cuts_the_sub_agents(tmp_path: Path) -> None:
    drawn = toolview(tmp_path, "show", "--surface", "text", str(WITH_AGENT))
    cut = toolview(tmp_path, "show", "--surface", "text", "--depth", "0", str(WITH_AGENT))
    assert drawn.returncode == cut.returncode == 0, drawn.stderr + cut.stderr
    assert "ls *.py | wc -l" in drawn.stdout and "cut at depth" not in drawn.stdout
    assert (
        "ls *.py | wc -l" not in cut.stdout and "sub-agent: 1 call (cut at depth 0)" in cut.stdout
    )


@pytest.mark.parametrize(
    "session_path",
    [WITH_AGENT, codex_session_files(CODEX_REAL)[0]],  # its main rollout, not the sub-agent's
    ids=["claude-code", "codex"],
)
def test_json_of_a_real_session_marks_its_sub_agent_and_checks_clean(
    tmp_path: Path, session_path: Path
) -> None:
    done = toolview(tmp_path, "show", "--json", str(session_path))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    calls = {r["toolCallId"] for r in records if r["kind"] == "tool-call"}
    marked = [r for r in records if "parentCallId" in r]
    assert marked and all(r["parentCallId"] in calls for r in marked)
    out = tmp_path / "out.jsonl"
    out.write_text(done.stdout)
    checked = toolview(tmp_path, "check", "--strict", str(out))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_sessions_lists_real_sessions_of_both_agents(tmp_path: Path) -> None:
    done = toolview(
        tmp_path, "sessions", "--json", "--claude", str(CLAUDE_REAL), "--codex", str(CODEX_REAL)
    )
    assert done.returncode == 0, done.stderr
    listed = [json.loads(line) for line in done.stdout.splitlines()]
    assert {s["agent"] for s in listed} == {"claude-code", "codex"}
    assert all(s["calls"] > 0 and s["start"] and s["firstPrompt"] for s in listed)
    by_id = {s["id"]: s for s in listed}
    assert by_id[WITH_AGENT.stem]["firstPrompt"].startswith("MAIN-SESSION")


def test_a_folder_of_both_agents_names_each_session_s_agent(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "mixed"
    shutil.copytree(CODEX_REAL, folder)
    tasks = CLAUDE_REAL / "d4bcab06-3388-4364-a88a-ecbbddedf62a.jsonl"
    shutil.copy(tasks, folder / tasks.name)
    done = toolview(tmp_path, "show", "--surface", "text", str(folder))
    assert done.returncode == 0, done.stderr
    headings = [line for line in done.stdout.splitlines() if line.startswith("══")]
    assert len(headings) == 2  # the Codex sub-agent's rollout is no session of its own
    claude = [h for h in headings if h.startswith("══ Claude Code session")]
    codex = [h for h in headings if h.startswith("══ Codex session")]
    assert len(claude) == len(codex) == 1 and tasks.stem in claude[0]
