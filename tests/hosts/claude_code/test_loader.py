"""load_observations, sniff and session_files on hand-made session folders."""

from __future__ import annotations

import json
import os
from pathlib import Path

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    StoredOutput,
    ToolCall,
    ToolResult,
    validate_props,
)
from toolview.hosts.claude_code import SessionNote, load_observations, session_files, sniff
from toolview.hosts.claude_code.stored import MAX_STORED_BYTES

from .records import SESSION, assistant, call, jsonl, prompt, result, text, write_session

BIG_NAME = "toolu_big.txt"


def load(path: Path) -> list[Observation | SessionNote]:
    return list(load_observations(path))


def big_result(folder: Path, stdout_head: str) -> list[dict[str, object]]:
    preview = (
        "<persisted-output>\nOutput too large (34.3KB). Full output saved to: "
        f"/gone/home/.claude/projects/p/{SESSION}/tool-results/{BIG_NAME}\n\n"
        "Preview (first 2KB):\n1\n2\n...\n</persisted-output>"
    )
    detail = {
        "stdout": stdout_head,
        "stderr": "",
        "interrupted": False,
        "persistedOutputPath": f"/gone/{BIG_NAME}",
        "persistedOutputSize": 35109,
    }
    return [call("big", "Bash", command="seq 1 9999"), result("big", preview, detail)]


def test_bad_lines_are_notes_in_place_and_the_rest_renders(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        jsonl([prompt("one")]) + b"{broken\n\n[1]\n" + jsonl([assistant(text("two"))]) + b"null\n"
    )
    items = load(path)
    notes = [i.text for i in items if isinstance(i, SessionNote)]
    assert notes[1:] == [
        "s.jsonl line 4: a JSON array, not an object",
        "s.jsonl line 6: a JSON null, not an object",
    ]
    assert notes[0].startswith("s.jsonl line 2: not JSON")
    assert [i.text for i in items if isinstance(i, Message)] == ["one", "two"]
    assert isinstance(items[-1], RunEnded)


def test_a_missing_file_is_a_note_not_an_exception(tmp_path: Path) -> None:
    (note,) = load(tmp_path / "gone.jsonl")
    assert isinstance(note, SessionNote) and "could not be read" in note.text


def test_a_last_line_without_its_newline_is_read_when_the_file_is_done(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(jsonl([prompt("one")]) + json.dumps(prompt("two")).encode())
    assert [i.text for i in load(path) if isinstance(i, Message)] == ["one", "two"]


def test_a_sub_agent_file_is_nested_before_its_call_result_and_marked(tmp_path: Path) -> None:
    main = write_session(
        tmp_path,
        [
            prompt("go"),
            call("agent_call", "Agent", prompt="sub task", subagent_type="general-purpose"),
            result(
                "agent_call",
                [text("sub says 2")],
                {"agentId": "a1", "content": [text("sub says 2")]},
            ),
        ],
    )
    sub = [
        prompt("sub task", isSidechain=True, agentId="a1"),
        call("s1", "Bash", command="ls"),
        result("s1", "x"),
    ]
    write_session(main.with_suffix("") / "subagents", sub, name="agent-a1")
    items = [i for i in load(main) if not isinstance(i, SessionNote)]
    marked = [i for i in items if i.parent_call_id == "agent_call"]
    assert [type(i).__name__ for i in marked if type(i).__name__ != "Usage"] == [
        "RunStarted",
        "Message",
        "ToolCall",
        "ToolResult",
        "RunEnded",
    ]
    answer = next(i for i in items if isinstance(i, ToolResult) and i.tool_call_id == "agent_call")
    assert items.index(marked[-1]) < items.index(answer) and answer.text == "sub says 2"


def test_a_nested_sub_agent_is_found_by_its_meta_file(tmp_path: Path) -> None:
    main = write_session(
        tmp_path,
        [call("outer", "Agent", prompt="p"), result("outer", "done", {"agentId": "a1"})],
    )
    folder = main.with_suffix("") / "subagents"
    # the sub-agent's own Agent call: its result has no toolUseResult, only the meta file links it
    write_session(
        folder, [call("inner", "Agent", prompt="q"), result("inner", "deep")], name="agent-a1"
    )
    write_session(
        folder, [call("leaf", "Bash", command="pwd"), result("leaf", "/")], name="agent-b2"
    )
    (folder / "agent-b2.meta.json").write_text(json.dumps({"agentType": "x", "toolUseId": "inner"}))
    items = [i for i in load(main) if isinstance(i, ToolCall)]
    assert [(c.tool_call_id, c.parent_call_id or None) for c in items] == [
        ("outer", None),
        ("inner", "outer"),
        ("leaf", "inner"),
    ]


def test_a_stored_output_is_read_from_the_sessions_tool_results(tmp_path: Path) -> None:
    main = write_session(tmp_path, big_result(tmp_path, "1\n2"))
    stored = main.with_suffix("") / "tool-results"
    stored.mkdir(parents=True)
    (stored / BIG_NAME).write_text("1\n2\n3\nthe end")
    (found,) = [i for i in load(main) if isinstance(i, ToolResult)]
    assert found.text == "1\n2\n3\nthe end"
    assert found.descriptor and found.descriptor.props["stdout"] == "1\n2\n3\nthe end"
    assert not found.descriptor.truncated


def test_a_missing_stored_output_keeps_the_head_and_says_how_much_is_missing(
    tmp_path: Path,
) -> None:
    main = write_session(tmp_path, big_result(tmp_path, "1\n2"))
    (found,) = [i for i in load(main) if isinstance(i, ToolResult)]
    assert "<persisted-output>" in found.text and "which is not here" in found.text
    assert found.descriptor and found.descriptor.truncated
    assert (found.descriptor.truncated.shown, found.descriptor.truncated.total) == (3, 35109)
    assert validate_props("shell", found.descriptor.props).stdout == "1\n2"


def test_a_stored_output_says_its_file_its_size_and_whether_it_is_whole(tmp_path: Path) -> None:
    """``ToolResult.stored``: the file's own size once read (not the record's), whole or not."""
    main = write_session(tmp_path, big_result(tmp_path, "1\n2"))
    (missing,) = [i for i in load(main) if isinstance(i, ToolResult)]
    recorded = f"/gone/home/.claude/projects/p/{SESSION}/tool-results/{BIG_NAME}"
    assert missing.stored == StoredOutput(recorded, whole=False, size=35109)  # the record's
    stored = main.with_suffix("") / "tool-results"
    stored.mkdir(parents=True)
    (stored / BIG_NAME).write_text("1\n2\n3\nthe end")
    (read,) = [i for i in load(main) if isinstance(i, ToolResult)]
    assert read.stored == StoredOutput(recorded, whole=True, size=len("1\n2\n3\nthe end"))
    (stored / BIG_NAME).write_bytes(b"x" * (MAX_STORED_BYTES + 1))
    (cut,) = [i for i in load(main) if isinstance(i, ToolResult)]
    assert cut.stored == StoredOutput(recorded, whole=False, size=MAX_STORED_BYTES + 1)


def test_a_stored_output_name_never_leaves_the_sessions_folder(tmp_path: Path) -> None:
    secret = tmp_path / "outside.txt"
    secret.write_text("PRIVATE")
    preview = f"<persisted-output>\nFull output saved to: {secret}\n</persisted-output>"
    main = write_session(tmp_path / "p", [call("c", "Mystery"), result("c", preview)])
    (main.with_suffix("") / "tool-results").mkdir(parents=True)
    (found,) = [i for i in load(main) if isinstance(i, ToolResult)]
    assert "PRIVATE" not in found.text


def test_sniff_tells_claude_code_from_other_formats() -> None:
    assert sniff(jsonl([{"type": "queue-operation", "operation": "enqueue"}, prompt("p")]))
    assert sniff(jsonl([prompt("p"), prompt("q")])[:-20])  # a head cut mid-line
    compact = json.dumps(prompt("p" * 100), separators=(",", ":")).encode()
    assert sniff(compact[:200])  # no whole record in the head: the fields say it
    assert not sniff(b'{"kind":"tool-call","toolCallId":"a"')
    assert not sniff(jsonl([{"kind": "tool-call", "toolCallId": "a", "toolName": "b", "args": {}}]))
    assert not sniff(jsonl([{"type": "session_meta", "timestamp": "t", "payload": {}}]))  # Codex
    assert not sniff(jsonl([{"type": "session", "version": 3, "id": "pi"}]))
    assert not sniff(b"plain text\n") and not sniff(b"")


def test_session_files_are_the_main_sessions_newest_first(tmp_path: Path) -> None:
    old = write_session(tmp_path / "proj-a", [prompt("a")], name="old")
    new = write_session(tmp_path / "proj-b", [prompt("b")], name="new")
    write_session(tmp_path / "proj-b" / "new" / "subagents", [prompt("s")], name="agent-x")
    write_session(tmp_path / "proj-a", [prompt("s")], name="agent-old-style")
    (tmp_path / "proj-a" / "notes.txt").write_text("not a session")
    os.utime(old, (1_000_000, 1_000_000))
    assert session_files(tmp_path) == [new, old]
    assert session_files(new) == [new]


def test_a_2_0_sub_agent_file_beside_the_session_is_linked_by_the_records_agent_id(
    tmp_path: Path,
) -> None:
    # Claude Code 2.0 put the link on the result record (``agentId``), the file beside the session
    answer = result("task", [text("found it")], {"structuredPatch": None}, agentId="e1c84ba5")
    main = write_session(tmp_path, [call("task", "Task", prompt="research"), answer])
    side = [assistant(text("researching"), message_id="sub1"), call("g", "Grep", pattern="x")]
    for record in side:
        record.update(isSidechain=True, agentId="e1c84ba5")
    write_session(tmp_path, [*side, result("g", "a.py", isSidechain=True)], name="agent-e1c84ba5")
    items = [i for i in load(main) if not isinstance(i, SessionNote)]
    assert [i.tool_call_id for i in items if isinstance(i, ToolCall) and i.parent_call_id] == ["g"]
    assert session_files(tmp_path) == [main]


def test_a_sub_agent_still_running_when_the_session_ends_is_read_before_the_end(
    tmp_path: Path,
) -> None:
    main = write_session(tmp_path, [prompt("go"), call("agent_call", "Agent", prompt="sub")])
    folder = main.with_suffix("") / "subagents"
    write_session(folder, [prompt("sub"), call("s1", "Bash", command="ls")], name="agent-a9")
    (folder / "agent-a9.meta.json").write_text(json.dumps({"toolUseId": "agent_call"}))
    items = [i for i in load(main) if not isinstance(i, SessionNote)]
    nested = [i.tool_call_id for i in items if isinstance(i, ToolCall) and i.parent_call_id]
    assert nested == ["s1"]
    assert isinstance(items[-1], RunEnded) and not items[-1].parent_call_id
    assert "1 call still without a result" in str(items[-1].reason)
