"""Each Claude Code tool's result → its toolview kind, as typed props (hand-made records)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolview.contract import (
    DiffProps,
    FileProps,
    ImageProps,
    Link,
    LinksProps,
    MarkdownProps,
    ShellProps,
    TableProps,
    TodoItem,
    TodoProps,
    ToolResult,
    Truncation,
    validate_props,
)
from toolview.hosts.claude_code import ClaudeCodeMapper

from .records import Record, call, image_block, result


def results(*records: Record) -> list[ToolResult]:
    mapper = ClaudeCodeMapper()
    out = [o for record in records for o in mapper.feed(record)] + mapper.finish()
    return [o for o in out if isinstance(o, ToolResult)]


def one(name: str, args: dict[str, Any], content: Any, detail: Any = None, **kw: Any) -> ToolResult:
    (found,) = results(call("c1", name, **args), result("c1", content, detail, **kw))
    return found


def props(found: ToolResult, kind: str) -> Any:
    assert found.descriptor, found
    assert found.descriptor.kind == kind
    return validate_props(kind, found.descriptor.props)


def test_bash_is_a_shell_with_stdout_stderr_and_exit_0() -> None:
    detail = {"stdout": "out", "stderr": "err", "interrupted": False, "isImage": False}
    found = one("Bash", {"command": "make"}, "out\nerr", detail)
    assert props(found, "shell") == ShellProps(
        command="make", exit_code=0, stdout="out", stderr="err"
    )
    assert found.text == "out\nerr" and not found.is_error


def test_bash_interrupted_or_in_the_background_has_no_known_exit_code() -> None:
    detail = {"stdout": "", "stderr": "", "interrupted": True}
    shell = props(one("Bash", {"command": "sleep 9"}, "", detail), "shell")
    assert shell.interrupted is True and shell.exit_code is None
    detail = {"stdout": "", "stderr": "", "interrupted": False, "backgroundTaskId": "bg7"}
    shell = props(
        one("Bash", {"command": "serve", "run_in_background": True}, "x", detail), "shell"
    )
    assert shell.background_task_id == "bg7" and shell.exit_code is None


def test_a_command_that_printed_an_image_is_an_image() -> None:
    detail = {"stdout": "iVBORw0KGgo=", "stderr": "", "interrupted": False, "isImage": True}
    found = one("Bash", {"command": "cat p.png"}, [image_block()], detail)
    assert props(found, "image") == ImageProps(
        mime_type="image/png", data="iVBORw0KGgo=", alt="cat p.png"
    )


def test_a_failing_command_is_an_error_result_that_keeps_its_shell_body() -> None:
    """Its exit code moves from the text's first line to the props; the output is the text."""
    found = one(
        "Bash",
        {"command": "ls /nope"},
        "Exit code 2\nls: cannot access '/nope'",
        "Error: Exit code 2\nls: cannot access '/nope'",
        is_error=True,
    )
    assert found.is_error and found.text == "ls: cannot access '/nope'"
    assert props(found, "shell") == ShellProps(
        command="ls /nope", exit_code=2, stdout="ls: cannot access '/nope'", stderr=""
    )


def test_a_refused_command_keeps_its_text_alone() -> None:
    """No ``Exit code N``: the command never ran, so there is no shell body to draw."""
    said = "The user doesn't want to proceed with this tool use."
    found = one("Bash", {"command": "rm -rf /"}, said, f"Error: {said}", is_error=True)
    assert found.is_error and found.text == said and found.descriptor is msgspec.UNSET


def test_a_command_that_says_it_exited_non_zero_is_an_error_without_the_flag() -> None:
    """The real failed-command shape (2.1.197) without ``is_error``: the exit code decides."""
    text = "Exit code 3\nout\nerr"
    found = one("Bash", {"command": "make"}, text, f"Error: {text}")
    assert found.is_error and found.text == "out\nerr" and props(found, "shell").exit_code == 3
    # a command that printed such a line itself, or exited 0, did not fail
    detail = {"stdout": "Exit code 5\nfine", "stderr": "", "interrupted": False}
    assert not one("Bash", {"command": "cat log"}, "Exit code 5\nfine", detail).is_error
    assert not one("Bash", {"command": "true"}, "Exit code 0", "Exit code 0").is_error


def test_a_tool_use_error_wrapper_is_removed() -> None:
    content = "<tool_use_error>File has not been read yet. Read it first.</tool_use_error>"
    found = one(
        "Edit", {"file_path": "/w/a"}, content, "Error: File has not been read yet.", is_error=True
    )
    assert found.is_error and found.text == "File has not been read yet. Read it first."
    assert not found.descriptor


def test_read_is_a_file_without_line_numbers_and_its_truncation_as_data() -> None:
    file = {
        "filePath": "/w/a.py",
        "content": "x = 1\ny = 2",
        "numLines": 2,
        "startLine": 5,
        "totalLines": 40,
    }
    found = one(
        "Read",
        {"file_path": "/w/a.py", "offset": 5, "limit": 2},
        "5\tx = 1\n6\ty = 2",
        {"type": "text", "file": file},
    )
    assert props(found, "file") == FileProps(path="/w/a.py", content="x = 1\ny = 2", start_line=5)
    assert found.descriptor and found.descriptor.truncated == Truncation(
        shown=2, total=40, unit="lines"
    )
    assert found.text == "x = 1\ny = 2"


@pytest.mark.parametrize("prefixed", ["     1→x = 1\n     2→y = 2", "1\tx = 1\n2\ty = 2"])
def test_read_without_a_structured_result_strips_the_line_prefixes(prefixed: str) -> None:
    found = one("Read", {"file_path": "/w/a.py"}, prefixed)
    assert props(found, "file").content == "x = 1\ny = 2"


def test_a_whole_read_is_not_truncated() -> None:
    file = {"filePath": "/w/a", "content": "a", "numLines": 1, "startLine": 1, "totalLines": 1}
    found = one("Read", {"file_path": "/w/a"}, "1\ta", {"type": "text", "file": file})
    assert found.descriptor and not found.descriptor.truncated


def test_read_of_an_image_is_an_image() -> None:
    detail = {
        "type": "image",
        "file": {"base64": "iVBORw0KGgo=", "type": "image/png", "originalSize": 9},
    }
    found = one("Read", {"file_path": "/w/p.png"}, [image_block()], detail)
    assert props(found, "image") == ImageProps(
        mime_type="image/png", data="iVBORw0KGgo=", alt="/w/p.png"
    )


def test_edit_is_a_unified_diff_from_the_structured_patch() -> None:
    hunk = {
        "oldStart": 3,
        "oldLines": 1,
        "newStart": 3,
        "newLines": 1,
        "lines": ["-status: draft", "+status: final"],
    }
    detail = {
        "filePath": "/w/notes.md",
        "structuredPatch": [hunk],
        "oldString": "draft",
        "newString": "final",
    }
    found = one("Edit", {"file_path": "/w/notes.md"}, "The file has been updated.", detail)
    assert props(found, "diff") == DiffProps(
        diff=(
            "--- a/w/notes.md\n+++ b/w/notes.md\n@@ -3,1 +3,1 @@\n-status: draft\n+status: final\n"
        ),
        path="/w/notes.md",
    )


def test_multi_edit_is_a_diff_of_every_hunk() -> None:
    hunks = [
        {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-a", "+A"]},
        {"oldStart": 9, "oldLines": 1, "newStart": 9, "newLines": 2, "lines": [" i", "+j"]},
    ]
    found = one(
        "MultiEdit", {"file_path": "f.txt"}, "ok", {"filePath": "f.txt", "structuredPatch": hunks}
    )
    assert props(found, "diff").diff.count("@@ -") == 2


def test_a_written_new_file_is_an_all_added_diff() -> None:
    detail = {
        "type": "create",
        "filePath": "/w/n.md",
        "content": "# N\n\nhi\n",
        "structuredPatch": [],
    }
    found = one("Write", {"file_path": "/w/n.md", "content": "# N\n\nhi\n"}, "File created", detail)
    assert (
        props(found, "diff").diff == "--- /dev/null\n+++ b/w/n.md\n@@ -0,0 +1,3 @@\n+# N\n+\n+hi\n"
    )


def test_an_overwritten_file_is_its_hunks() -> None:
    hunk = {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-old", "+new"]}
    detail = {"type": "update", "filePath": "/w/n", "content": "new\n", "structuredPatch": [hunk]}
    found = one("Write", {"file_path": "/w/n", "content": "new\n"}, "updated", detail)
    assert "-old\n+new" in props(found, "diff").diff


def test_a_malformed_patch_keeps_the_text() -> None:
    detail = {"filePath": "/w/n", "structuredPatch": [{"oldStart": "1", "lines": ["x"]}]}
    found = one("Edit", {"file_path": "/w/n"}, "The file was updated", detail)
    assert not found.descriptor and found.text == "The file was updated"


def test_notebook_edit_is_a_diff_of_the_notebook_or_the_inserted_cell() -> None:
    detail = {
        "notebook_path": "/w/n.ipynb",
        "original_file": "a\nb\n",
        "updated_file": "a\nc\n",
        "edit_mode": "replace",
    }
    diff = props(
        one("NotebookEdit", {"notebook_path": "/w/n.ipynb"}, "Updated cell", detail), "diff"
    ).diff
    assert "-b" in diff and "+c" in diff
    detail = {"new_source": "print(1)", "cell_id": "x", "edit_mode": "insert"}
    found = one(
        "NotebookEdit",
        {"notebook_path": "/w/n.ipynb", "new_source": "print(1)"},
        "Inserted",
        detail,
    )
    assert "+print(1)" in props(found, "diff").diff


def test_glob_is_a_table_of_paths_unless_cut() -> None:
    detail = {"filenames": ["a.py", "b.py"], "numFiles": 2, "truncated": False}
    found = one("Glob", {"pattern": "*.py"}, "a.py\nb.py", detail)
    assert props(found, "table") == TableProps(columns=["path"], rows=[["a.py"], ["b.py"]])
    detail = {"filenames": ["a.py"], "numFiles": 1, "truncated": True}
    cut = one("Glob", {"pattern": "*"}, "a.py\n(Results are truncated.)", detail)
    assert not cut.descriptor and "truncated" in cut.text


def test_grep_modes() -> None:
    content = {
        "mode": "content",
        "numFiles": 0,
        "filenames": [],
        "content": "app.py:6:def main():\nu.py:1:x",
        "numLines": 2,
    }
    table = props(
        one("Grep", {"pattern": "def", "output_mode": "content"}, content["content"], content),
        "table",
    )
    assert table.rows == [["app.py", 6, "def main():"], ["u.py", 1, "x"]]
    loose = {"mode": "content", "content": "def main():\nx", "numLines": 2}
    assert (
        props(
            one("Grep", {"pattern": "def", "path": "app.py"}, "def main():\nx", loose), "file"
        ).path
        == "app.py"
    )
    files = {"mode": "files_with_matches", "filenames": ["a", "b"], "numFiles": 2}
    assert props(one("Grep", {"pattern": "x"}, "Found 2 files\na\nb", files), "table").rows == [
        ["a"],
        ["b"],
    ]
    counts = {"mode": "count", "content": "a:3\nb:1", "numFiles": 2}
    assert props(one("Grep", {"pattern": "x"}, "a:3\nb:1", counts), "table").rows == [
        ["a", 3],
        ["b", 1],
    ]
    limited = {"mode": "files_with_matches", "filenames": ["a"], "numFiles": 1, "appliedLimit": 1}
    assert not one("Grep", {"pattern": "x"}, "a", limited).descriptor


def test_ls_is_the_listing_as_a_file() -> None:
    found = one("LS", {"path": "/w"}, "- /w/\n  - a.py\n")
    assert props(found, "file") == FileProps(path="/w", content="- /w/\n  - a.py\n")


def test_web_fetch_is_markdown_and_web_search_is_links() -> None:
    detail = {
        "bytes": 10,
        "code": 200,
        "codeText": "OK",
        "result": "# Page\n\nbody",
        "url": "https://e.x",
    }
    found = one("WebFetch", {"url": "https://e.x", "prompt": "sum"}, "# Page\n\nbody", detail)
    assert props(found, "markdown") == MarkdownProps(markdown="# Page\n\nbody")
    hits = [{"title": "T", "url": "https://t.x"}, {"title": "U", "url": "https://u.x"}]
    detail = {"query": "q", "results": [{"tool_use_id": "s", "content": hits}, "commentary"]}
    links = props(one("WebSearch", {"query": "q"}, "Web search results …", detail), "links")
    assert links == LinksProps(
        links=[Link(title="T", url="https://t.x"), Link(title="U", url="https://u.x")]
    )


def test_todo_write_is_a_todo_list() -> None:
    todos = [
        {"content": "Survey", "status": "completed", "activeForm": "Surveying"},
        {"content": "Write", "status": "in_progress", "activeForm": "Writing"},
    ]
    found = one(
        "TodoWrite",
        {"todos": todos},
        "Todos have been modified",
        {"oldTodos": [], "newTodos": todos},
    )
    assert props(found, "todo") == TodoProps(
        items=[
            TodoItem(content="Survey", status="completed", active_form="Surveying"),
            TodoItem(content="Write", status="in_progress", active_form="Writing"),
        ]
    )


def test_the_task_tools_show_the_board_as_it_stands() -> None:
    found = results(
        call("t1", "TaskCreate", subject="Survey", description="d", activeForm="Surveying"),
        result("t1", "Task #1 created", {"task": {"id": "1", "subject": "Survey"}}),
        call("t2", "TaskCreate", subject="Write", description="d"),
        result("t2", "Task #2 created", {"task": {"id": "2", "subject": "Write"}}),
        call("t3", "TaskUpdate", taskId="1", status="completed"),
        result(
            "t3",
            "Updated task #1 status",
            {"success": True, "taskId": "1", "updatedFields": ["status"]},
        ),
        call("t4", "TaskUpdate", taskId="2", status="deleted"),
        result("t4", "Deleted", {"success": True, "taskId": "2"}),
    )
    boards = [validate_props("todo", r.descriptor.props) for r in found if r.descriptor]
    assert [[(i.content, i.status) for i in board.items] for board in boards] == [
        [("Survey", "pending")],
        [("Survey", "pending"), ("Write", "pending")],
        [("Survey", "completed"), ("Write", "pending")],
        [("Survey", "completed")],
    ]


def test_task_list_replaces_the_board() -> None:
    tasks = [{"id": "7", "subject": "Ship", "status": "in_progress", "blockedBy": []}]
    (found,) = results(
        call("t", "TaskList"), result("t", "#7 [in_progress] Ship", {"tasks": tasks})
    )
    assert props(found, "todo").items == [TodoItem(content="Ship", status="in_progress")]


def test_agent_is_the_final_answer_without_the_agent_trailer() -> None:
    content = [
        text_block("The answer."),
        text_block("agentId: a1 (use SendMessage …)\n<usage>total_tokens: 9</usage>"),
    ]
    detail = {"status": "completed", "agentId": "a1", "content": [text_block("The answer.")]}
    found = one("Agent", {"prompt": "p", "subagent_type": "general-purpose"}, content, detail)
    assert (
        props(found, "markdown") == MarkdownProps(markdown="The answer.")
        and found.text == "The answer."
    )
    bare = one("Task", {"prompt": "p"}, "The answer.\nagentId: a1 (use SendMessage …)")
    assert bare.text == "The answer."


def test_an_mcp_tool_goes_through_the_mcp_mapping() -> None:
    found = one(
        "mcp__git__status", {}, [text_block('{"clean": true}')], [text_block('{"clean": true}')]
    )
    assert found.tool_name == "mcp__git__status" and found.text == '{"clean": true}'
    image = one("mcp__shots__take", {}, [image_block("iVBORw0KGgo=")])
    assert props(image, "image") == ImageProps(mime_type="image/png", data="iVBORw0KGgo=")
    failed = one("mcp__x__y", {}, "boom", is_error=True)
    assert failed.is_error and "boom" in failed.text


def test_an_unknown_tool_keeps_its_text_and_a_lone_image_is_drawn() -> None:
    found = one("ScheduleWakeup", {"delaySeconds": 600}, "Wakeup scheduled in 600s.")
    assert found.text == "Wakeup scheduled in 600s." and not found.descriptor
    shot = one("Screenshot", {}, [image_block()])
    assert props(shot, "image").mime_type == "image/png"
    odd = one("Mystery", {}, [{"type": "document", "source": {}}, text_block("x")])
    assert odd.text == "[document block: not shown]\nx"


def test_exit_plan_mode_is_the_plan_as_markdown() -> None:
    found = one(
        "ExitPlanMode", {"plan": "1. do\n2. check"}, "User approved", {"plan": "1. do\n2. check"}
    )
    assert props(found, "markdown").markdown == "1. do\n2. check"


def text_block(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


def test_a_sub_agents_listings_are_read_from_their_text() -> None:
    # a sub-agent's results carry no toolUseResult
    assert props(one("Glob", {"pattern": "*"}, "a.py\nb.py"), "table").rows == [["a.py"], ["b.py"]]
    assert not one("Glob", {"pattern": "*"}, "No files found").descriptor
    assert not one("Glob", {"pattern": "*"}, "a\n(Results are truncated.)").descriptor
    found = one("Grep", {"pattern": "x"}, "Found 2 files\na.py\nb.py")
    assert props(found, "table").rows == [["a.py"], ["b.py"]]
    lines = one("Grep", {"pattern": "x", "output_mode": "content"}, "a.py:3:x = 1")
    assert props(lines, "table").rows == [["a.py", 3, "x = 1"]]
    created = one(
        "Write", {"file_path": "/w/n", "content": "hi\n"}, "File created successfully at: /w/n"
    )
    assert props(created, "diff").diff.startswith("--- /dev/null\n")
    updated = one(
        "Write", {"file_path": "/w/n", "content": "hi\n"}, "The file /w/n has been updated."
    )
    assert not updated.descriptor
