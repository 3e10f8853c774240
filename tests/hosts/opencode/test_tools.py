"""OpenCode tool parts → calls and results of the built-in kinds, failures as errors."""

from __future__ import annotations

from toolview.hosts.opencode.tools import call_of, result_of


def _result(tool: str, state: dict[str, object]) -> tuple[str | None, bool, object]:
    call = call_of({"callID": "c", "tool": tool, "state": state})
    assert call is not None
    result = result_of(call, state)
    return (result.descriptor.kind if result.descriptor else None), result.is_error, result


def test_a_shell_that_exits_non_zero_is_a_failure_though_completed() -> None:
    state = {"status": "completed", "input": {"command": "exit 3"}, "output": "no\n",
             "metadata": {"output": "no\n", "exit": 3}}  # fmt: skip
    kind, failed, result = _result("bash", state)
    assert (kind, failed) == ("shell", True)
    assert result.descriptor.props["exitCode"] == 3  # type: ignore[union-attr]


def test_an_error_state_is_a_failure_with_its_error_text() -> None:
    state = {"status": "error", "input": {"filePath": "/x"}, "error": "File not found: /x"}
    kind, failed, result = _result("read", state)
    assert (kind, failed, result.text) == (None, True, "File not found: /x")  # type: ignore[attr-defined]


def test_read_write_edit_and_todos_take_their_kinds() -> None:
    display = {"type": "file", "path": "/n", "text": "b", "lineStart": 2, "truncated": False}
    read = {"status": "completed", "input": {"filePath": "/n"}, "output": "<path>…",
            "metadata": {"display": display}}  # fmt: skip
    kind, _, result = _result("read", read)
    assert kind == "file" and result.descriptor.props["startLine"] == 2  # type: ignore[union-attr]
    write = {"status": "completed", "input": {"filePath": "/n", "content": "a\n"}, "output": "ok"}
    assert _result("write", write)[0] == "file"
    edit = {"status": "completed", "input": {"filePath": "/n"}, "output": "ok",
            "metadata": {"diff": "--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n"}}  # fmt: skip
    assert _result("edit", edit)[0] == "diff"
    todos = {"status": "completed", "output": "[]",
             "input": {"todos": [{"content": "x", "status": "in_progress"}]}}  # fmt: skip
    assert _result("todowrite", todos)[0] == "todo"
    assert _result("glob", {"status": "completed", "output": "a"})[:2] == (None, False)
