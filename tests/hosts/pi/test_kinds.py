"""The optional mapping of pi's tools onto toolview kinds."""

from __future__ import annotations

from toolview.contract import Descriptor, ToolResult, Truncation
from toolview.hosts.pi import to_toolview_kinds


def result(tool: str, text: str, *, is_error: bool = False, complete: bool = True) -> ToolResult:
    descriptor = Descriptor(kind=f"pi.tool.{tool}", props={})
    return ToolResult("c", tool, text, complete, is_error, descriptor)


def kind_of(observation: ToolResult) -> tuple[str, dict[str, object]]:
    assert isinstance(observation.descriptor, Descriptor)
    return observation.descriptor.kind, observation.descriptor.props


def test_bash_becomes_shell_and_keeps_truncation() -> None:
    cut = Truncation(shown=10, total=20, unit="lines")
    base = ToolResult("c", "bash", "out", True, False, Descriptor("pi.tool.bash", {}, cut))
    mapped = to_toolview_kinds(base, args={"command": "make"})
    assert kind_of(mapped) == (
        "shell",
        {"command": "make", "exitCode": 0, "stdout": "out", "stderr": ""},
    )
    assert isinstance(mapped.descriptor, Descriptor) and mapped.descriptor.truncated == cut


def test_bash_partial_has_no_exit_code_and_failure_reads_pis_code() -> None:
    partial = to_toolview_kinds(result("bash", "so far", complete=False), args={"command": "x"})
    assert kind_of(partial)[1]["exitCode"] is None
    failed = to_toolview_kinds(
        result("bash", "boom\n\nCommand exited with code 2", is_error=True), args={"command": "x"}
    )
    assert kind_of(failed)[1]["exitCode"] == 2


def test_grep_find_ls_become_tables() -> None:
    grep = to_toolview_kinds(result("grep", "a.py:3: def f():\na.py-4- pass"), args={})
    assert kind_of(grep) == (
        "table",
        {
            "columns": ["path", "line", "text"],
            "rows": [["a.py", 3, "def f():"], ["a.py", 4, "pass"]],
        },
    )
    found = to_toolview_kinds(result("find", "a.py\nb/c.py"), args={})
    assert kind_of(found) == ("table", {"columns": ["path"], "rows": [["a.py"], ["b/c.py"]]})
    listing = to_toolview_kinds(result("ls", "src/\nREADME.md"), args={})
    assert kind_of(listing)[1]["columns"] == ["entry"]


def test_a_pi_note_keeps_the_floor_so_nothing_is_dropped() -> None:
    noted = result("find", "a.py\n\n[100 results limit reached. Refine the pattern]")
    assert to_toolview_kinds(noted, args={}) == noted


def test_errors_unknown_tools_and_bad_args_keep_the_floor() -> None:
    failed_read = result("read", "ENOENT", is_error=True)
    assert to_toolview_kinds(failed_read, args={"path": "x"}) == failed_read
    custom = result("deploy", "ok")
    assert to_toolview_kinds(custom, args={}) == custom
    no_command = result("bash", "ok")
    assert to_toolview_kinds(no_command, args={"command": 3}) == no_command
    bad_diff = result("edit", "Successfully replaced")
    assert to_toolview_kinds(bad_diff, args={"path": "f"}, details={"diff": "???"}) == bad_diff


def test_read_with_offset_sets_start_line_and_write_shows_content() -> None:
    read = to_toolview_kinds(result("read", "x\ny"), args={"path": "f.py", "offset": 40})
    assert kind_of(read) == ("file", {"path": "f.py", "content": "x\ny", "startLine": 40})
    write = to_toolview_kinds(
        result("write", "Successfully wrote"), args={"path": "n", "content": "z"}
    )
    assert kind_of(write) == ("file", {"path": "n", "content": "z"})
