"""Rollout files: sniffing, listing sessions, streaming with notes, sub-agents found."""

from __future__ import annotations

import json
import os
from pathlib import Path

from toolview.contract import Message, Observation, RunStarted, ToolCall, ToolResult
from toolview.hosts.codex import load_observations, parent_thread_id, session_files, sniff
from toolview.hosts.sessions import SessionNote

from .records import call, event, lines, meta, output, user


def write(path: Path, data: bytes, mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def day(root: Path, name: str) -> Path:
    return root / "2026" / "12" / "01" / name


def test_sniff_knows_a_rollout_even_cut_mid_line() -> None:
    head = lines(meta(), user("hi"))
    assert sniff(head) and sniff(head[:90])
    ordinal = (
        b'{"timestamp":"2026-12-01T23:56:58.012Z","ordinal":0,"type":"session_meta","payload":{'
    )
    assert sniff(ordinal)
    claude = b'{"type":"user","message":{"role":"user","content":"hi"},"timestamp":"2026-12-01"}\n'
    pi = b'{"type":"session","version":3,"id":"x","timestamp":"2026-12-01T10:00:00.000Z"}\n'
    assert not sniff(claude) and not sniff(pi) and not sniff(b"") and not sniff(b"\xff" * 10)


def test_a_bad_line_is_a_note_and_the_rest_is_read(tmp_path: Path) -> None:
    data = lines(meta(), user("before")) + b"{broken\n" + b"[1]\n" + lines(user("after"))
    stream = list(load_observations(write(tmp_path / "rollout-x.jsonl", data)))
    notes = [o.text for o in stream if isinstance(o, SessionNote)]
    assert notes == [
        "rollout-x.jsonl line 3: not JSON (JSON is malformed: object keys must be strings"
        " (byte 1))",
        "rollout-x.jsonl line 4: a JSON array, not an object",
    ]
    texts = [o.text for o in stream if isinstance(o, Message)]
    assert texts == ["before", "after"]


def test_an_unreadable_file_is_a_note(tmp_path: Path) -> None:
    stream = list(load_observations(tmp_path / "rollout-missing.jsonl"))
    assert len(stream) == 1 and isinstance(stream[0], SessionNote)
    assert "cannot be read" in stream[0].text


def test_session_files_newest_first_without_sub_agents(tmp_path: Path) -> None:
    old = write(day(tmp_path, "rollout-2026-12-01T09-00-00-aaaa.jsonl"), lines(meta("aaaa")), 1000)
    new = write(day(tmp_path, "rollout-2026-12-01T11-00-00-bbbb.jsonl"), lines(meta("bbbb")), 900)
    child = meta("cccc", parent_thread_id="bbbb", thread_source="subagent")
    write(day(tmp_path, "rollout-2026-12-01T11-00-01-cccc.jsonl"), lines(child))
    write(day(tmp_path, "notes.txt"), b"not a rollout")
    assert session_files(tmp_path) == [new, old]
    assert session_files(tmp_path / "nowhere") == []


def test_older_sub_agents_are_found_by_their_spawn_event(tmp_path: Path) -> None:
    parent = lines(
        meta("parent-1"),
        call("spawn1", "spawn_agent", {"message": "look"}),
        event("collab_agent_spawn_end", call_id="spawn1", new_thread_id="child-1"),
        output("spawn1", json.dumps({"agent_id": "child-1"})),
        call("spawn2", "spawn_agent", {"message": "again"}),
        event("collab_agent_spawn_end", call_id="spawn2", new_thread_id="gone-2"),
        output("spawn2", "{}"),
    )
    child = lines(
        meta("child-1", source={"subagent": {"thread_spawn": {"parent_thread_id": "parent-1"}}}),
        call("c9", "shell", {"command": ["ls"]}),
        output("c9", "x"),
    )
    main = write(day(tmp_path, "rollout-2026-12-01T10-00-00-parent-1.jsonl"), parent)
    write(tmp_path / "2026" / "12" / "02" / "rollout-2026-12-02T00-00-00-child-1.jsonl", child)
    stream = list(load_observations(main))
    observations: list[Observation] = [o for o in stream if not isinstance(o, SessionNote)]
    marked = {
        o.tool_call_id: o.parent_call_id
        for o in observations
        if isinstance(o, ToolCall | ToolResult)
    }
    assert marked["c9"] == "spawn1"
    assert [o.text for o in stream if isinstance(o, SessionNote)] == [
        "the sub-agent gone-2 of call spawn2: its rollout was not found"
    ]
    assert session_files(tmp_path) == [main]


def test_a_sub_agent_that_names_its_parent_is_not_read_twice(tmp_path: Path) -> None:
    loop = lines(
        meta("self-1"), event("collab_agent_spawn_end", call_id="s", new_thread_id="self-1")
    )
    main = write(day(tmp_path, "rollout-2026-12-01T10-00-00-self-1.jsonl"), loop)
    notes = [o.text for o in load_observations(main) if isinstance(o, SessionNote)]
    assert notes == ["the sub-agent self-1 of call s: already read"]


def test_parent_thread_id_says_which_thread_spawned_a_rollout(tmp_path: Path) -> None:
    v2 = write(tmp_path / "a.jsonl", lines(meta("c", parent_thread_id="p-1")))
    spawn = {"subagent": {"thread_spawn": {"parent_thread_id": "p-2", "depth": 1}}}
    v1 = write(tmp_path / "b.jsonl", lines(meta("c", source=spawn)))
    unnamed = write(tmp_path / "c.jsonl", lines(meta("c", thread_source="subagent")))
    main = write(tmp_path / "d.jsonl", lines(meta("m", source="cli")))
    long = meta("c", parent_thread_id="p-3", base_instructions={"text": "x" * 200})
    cut = write(tmp_path / "e.jsonl", lines(long)[:-100])  # a first line still being written
    assert [parent_thread_id(p) for p in (v2, v1, unnamed, main, cut)] == [
        "p-1", "p-2", "", None, "p-3"
    ]  # fmt: skip
    assert parent_thread_id(tmp_path / "missing.jsonl") is None


def test_a_huge_output_is_read_in_pieces_and_its_cut_said(tmp_path: Path) -> None:
    """A line over 4 MiB (``hosts.long_lines``): the output's head and tail are kept, the
    result says exactly how many lines were cut (base: the whole 6 MiB text, no cut)."""
    rows = 6 * 1024 * 1024 // 16
    text = "".join(f"row {n:010d}\n" for n in range(rows))  # 16 bytes a row
    data = lines(meta(), user("read"), call("c1", "read_file", {"path": "x"}), output("c1", text))
    path = write(day(tmp_path, "rollout-2026-12-01T10-00-00-thread-1.jsonl"), data)
    del text, data
    (result,) = [o for o in load_observations(path) if isinstance(o, ToolResult)]
    truncated = getattr(result.descriptor, "truncated", None)
    assert truncated is not None and (truncated.shown, truncated.total) == (90, rows)
    assert result.text.startswith("row 0000000000\n") and "row 0000000044\n" in result.text
    assert result.text.endswith(f"row {rows - 1:010d}\n") and "row 0000000045\n" not in result.text
    assert f"… {rows - 90:,} lines omitted …" in result.text


def test_a_run_start_says_the_rollouts_folder_and_git_branch(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(lines(meta(git={"branch": "main", "commit_hash": "abc"}), user("hi")))
    started = [o for o in load_observations(path) if isinstance(o, RunStarted)]
    assert started and all((o.cwd, o.branch) == ("/w", "main") for o in started)
