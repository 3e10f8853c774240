"""``CursorMapper``: each published event and tool mapped to its kind; what it cannot map
said, never dropped, never a crash."""

from __future__ import annotations

import pytest

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolResult, Usage
from toolview.hosts.cursor import CursorMapper
from toolview.hosts.sessions import SessionLineError

from .events import call, init, said


def _mapped(*events: dict[str, object]) -> tuple[list[object], list[str]]:
    mapper = CursorMapper()
    out: list[object] = []
    for event in events:
        out += mapper.feed(event)
    out += mapper.finish()
    return out, mapper.take_notes()


def _results(out: list[object]) -> dict[str, ToolResult]:
    return {o.tool_call_id: o for o in out if isinstance(o, ToolResult)}


def test_a_run_opens_on_the_prompt_with_its_folder_and_closes_on_result() -> None:
    done = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
    out, notes = _mapped(init(cwd="/home/dev/x"), said("user", "go"), said("assistant", "ok"), done)
    (started,) = [o for o in out if isinstance(o, RunStarted)]
    (ended,) = [o for o in out if isinstance(o, RunEnded)]
    assert started.cwd == "/home/dev/x" and started.run_id.startswith("0b9d7c1e")
    assert ended.outcome == "completed" and notes == []
    texts = [(o.role, o.text) for o in out if isinstance(o, Message)]
    assert texts == [("user", "go"), ("assistant", "ok")]


def test_a_failed_run_ends_in_error_with_its_reason() -> None:
    failed = {"type": "result", "subtype": "error", "is_error": True, "result": "quota exceeded"}
    out, _ = _mapped(init(), said("user", "go"), failed)
    (ended,) = [o for o in out if isinstance(o, RunEnded)]
    assert ended.outcome == "error" and ended.reason == "quota exceeded"


def test_a_shell_exiting_non_zero_is_a_failure_with_its_code_and_streams() -> None:
    bad = {"failure": {"exitCode": 2, "stdout": "out", "stderr": "boom", "executionTime": 5}}
    good = {"success": {"exitCode": 0, "stdout": "fine", "stderr": ""}}
    odd = {"success": {"exitCode": 3, "stdout": "", "stderr": "said success, exited 3"}}
    events = [
        *call("a", "shellToolCall", {"command": "make"}, bad),
        *call("b", "shellToolCall", {"command": "true"}, good),
        *call("c", "shellToolCall", {"command": "x"}, odd),
    ]
    results = _results(_mapped(init(), said("user", "go"), *events)[0])
    shell = results["a"].descriptor
    assert results["a"].is_error and shell is not None and shell.kind == "shell"
    assert (shell.props["exitCode"], shell.props["stderr"], shell.props["command"]) == (
        2,
        "boom",
        "make",
    )
    assert not results["b"].is_error and results["c"].is_error


def test_read_write_edit_todo_and_glob_are_their_kinds() -> None:
    todos = [
        {"content": "a", "status": "TODO_STATUS_COMPLETED"},
        {"content": "b", "status": "pending"},
    ]
    events = [
        *call("r", "readToolCall", {"path": "f.py"}, {"success": {"content": "x = 1\n"}}),
        *call("w", "writeToolCall", {"path": "n.md", "fileText": "hi\n"}, {"success": {}}),
        *call(
            "e",
            "editToolCall",
            {"path": "f.py", "strReplace": {"oldText": "1", "newText": "2"}},
            {"success": {}},
        ),
        *call("t", "todoToolCall", {"todos": todos}, {"success": {}}),
        *call("g", "globToolCall", {"globPattern": "*"}, {"success": {"files": ["/a", "/b"]}}),
    ]
    results = _results(_mapped(init(), said("user", "go"), *events)[0])
    kinds = {k: r.descriptor.kind for k, r in results.items() if r.descriptor is not None}
    assert kinds == {"r": "file", "w": "diff", "e": "diff", "t": "todo", "g": "table"}
    assert "+hi" in results["w"].descriptor.props["diff"]  # type: ignore[union-attr]
    assert "-1" in results["e"].descriptor.props["diff"]  # type: ignore[union-attr]
    statuses = [i["status"] for i in results["t"].descriptor.props["items"]]  # type: ignore[union-attr]
    assert statuses == ["completed", "pending"]
    assert results["g"].descriptor.props["rows"] == [["/a"], ["/b"]]  # type: ignore[union-attr]


def test_an_ls_tree_is_walked_into_paths() -> None:
    tree = {
        "absPath": "/r",
        "childrenFiles": [{"name": "a"}],
        "childrenDirs": [{"absPath": "/r/d", "childrenFiles": [{"name": "b"}], "childrenDirs": []}],
    }
    events = call("l", "lsToolCall", {"path": "/r"}, {"success": {"directoryTreeRoot": tree}})
    result = _results(_mapped(init(), said("user", "go"), *events)[0])["l"]
    assert result.descriptor is not None and sorted(result.descriptor.props["rows"]) == [
        ["/r/a"],
        ["/r/d/b"],
    ]


def test_an_error_or_a_refusal_is_a_failed_call_with_its_words() -> None:
    events = [
        *call("x", "readToolCall", {"path": "gone"}, {"error": {"errorMessage": "no such file"}}),
        *call("y", "shellToolCall", {"command": "rm -rf /"}, {"rejected": {"reason": "denied"}}),
    ]
    results = _results(_mapped(init(), said("user", "go"), *events)[0])
    assert results["x"].is_error and results["x"].text == "no such file"
    assert results["y"].is_error and results["y"].text == "denied"


def test_an_unknown_tool_keeps_its_json_and_a_function_its_name_and_arguments() -> None:
    fn = {"function": {"name": "mcp_lookup", "arguments": '{"q": "z"}'}}
    started = {"type": "tool_call", "subtype": "started", "call_id": "f", "tool_call": fn}
    done = {
        **started,
        "subtype": "completed",
        "tool_call": {"function": {**fn["function"], "result": {"success": {"n": 1}}}},
    }
    events = [started, done, *call("h", "hologramToolCall", {"z": 1}, {"success": {"beams": 3}})]
    out, notes = _mapped(init(), said("user", "go"), *events)
    calls = {o.tool_call_id: o for o in out if isinstance(o, ToolCall)}
    assert (calls["f"].tool_name, calls["f"].args) == ("mcp_lookup", {"q": "z"})
    results = _results(out)
    assert calls["h"].tool_name == "hologram" and '"beams": 3' in results["h"].text
    assert not results["h"].is_error and notes == []


def test_thinking_deltas_are_one_message_and_usage_is_counted() -> None:
    usage = {"inputTokens": 10, "outputTokens": 4, "cacheReadTokens": 2}
    done = {"type": "result", "is_error": False, "usage": usage}
    thinking = [{"type": "thinking", "subtype": "delta", "text": t} for t in ("a ", "b")]
    out, _ = _mapped(init(), said("user", "go"), *thinking, said("assistant", "ok"), done)
    assert [o.text for o in out if isinstance(o, Message) and o.role == "thinking"] == ["a b"]
    (counted,) = [o for o in out if isinstance(o, Usage)]
    assert (counted.model, counted.input_tokens, counted.cache_read_tokens) == ("gpt-5", 10, 2)


def test_an_unknown_event_type_is_said_once_and_bad_events_raise() -> None:
    odd = {"type": "hologram", "session_id": "s"}
    _, notes = _mapped(init(), said("user", "go"), odd, odd)
    assert notes == ["Cursor agent events of type 'hologram' are not shown"]
    with pytest.raises(SessionLineError):
        CursorMapper().feed_line(b'{"type": "tool_call", "subtype": "started"}')
    with pytest.raises(SessionLineError):
        CursorMapper().feed_line(b"[1, 2]")


def test_grep_matches_are_a_table_and_an_unknown_shape_its_json() -> None:
    hits = [{"file": "a.py", "matches": [{"lineNumber": 3, "content": "x = 1"}]}]
    found = {"workspaceResults": {"/w": {"content": {"matches": hits}}}}
    events = [
        *call("g", "grepToolCall", {"pattern": "x"}, {"success": found}),
        *call("h", "grepToolCall", {"pattern": "y"}, {"success": {"count": 0}}),
    ]
    results = _results(_mapped(init(), said("user", "go"), *events)[0])
    table = results["g"].descriptor
    assert table is not None and table.props["rows"] == [["a.py", 3, "x = 1"]]
    assert not results["h"].descriptor and '"count": 0' in results["h"].text
