"""The generic renderer: every branch of the fixed order, header data, envelopes."""

from __future__ import annotations

from render_samples import CASES, call_thread

from toolview.contract import (
    STATUS_DISPLAY,
    Descriptor,
    RunEnded,
    RunStarted,
    ShellProps,
    Thread,
    ToolCall,
    ToolResult,
    Truncation,
)
from toolview.contract.status import call_status
from toolview.render import (
    AbortedBody,
    CallView,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    KindBody,
    PendingBody,
    Receipt,
    view_entry,
)
from toolview.render.limits import Omission


def view(thread: Thread) -> CallView:
    (entry,) = thread.calls()
    decided = view_entry(entry, thread)
    assert isinstance(decided, CallView)
    return decided


def test_pending_shows_a_running_indicator_with_the_partial_output() -> None:
    result = view(CASES["pending"]())
    assert result.state == "pending" and result.header.status == "running"
    assert isinstance(result.body, PendingBody) and result.body.partial is not None
    assert result.body.partial.text == "so far"
    assert view(CASES["pending_silent"]()).body == PendingBody(None)


def test_no_result_after_the_run_is_aborted() -> None:
    result = view(CASES["aborted"]())
    assert result.state == "aborted" and result.header.status == "cancelled"
    assert result.body == AbortedBody("completed")


def test_a_partial_result_after_the_run_ended_is_aborted_not_pending() -> None:
    result = view(call_thread(text="half", complete=False, run_ended=True))
    assert result.state == "aborted" and isinstance(result.body, AbortedBody)


def test_an_aborted_call_keeps_its_last_partial_output_bounded_with_how_much() -> None:
    text = "".join(f"line {n}\n" for n in range(1, 1001))
    result = view(call_thread(text=text, complete=False, run_ended=True))
    body = result.body
    assert isinstance(body, AbortedBody) and body.partial is not None
    assert body.partial.text.startswith("line 901\n") and body.partial.text.endswith("line 1000\n")
    assert body.partial.before == Omission(900, "lines")
    assert body.stopped == Omission(1000, "lines")


def test_an_aborted_call_counts_what_the_tool_left_out_and_says_the_reason_cleaned() -> None:
    props = {"command": "seq", "exitCode": None, "stdout": "9\n10\n", "stderr": ""}
    descriptor = Descriptor("shell", props, Truncation(2, 10, "lines"))
    secret = "AKIAIOSFODNN7EXAMPLE"
    thread = Thread.from_observations(
        [
            RunStarted("r"),
            ToolCall("c1", "shell", {}),
            ToolResult("c1", "shell", "9\n10\n", False, False, descriptor),
            RunEnded("r", "error", f"KeyError: {secret}\n\x1b[2J" + "x" * 5000),
        ]
    )
    body = view(thread).body
    assert isinstance(body, AbortedBody) and body.stopped == Omission(10, "lines")
    assert body.reason is not None and body.reason.startswith("KeyError: ")
    assert secret not in body.reason and "\x1b" not in body.reason and "\n" not in body.reason
    assert len(body.reason) < 400


def test_refused_is_its_receipt_denied_with_its_reason() -> None:
    thread = CASES["refused"]()
    receipt = view_entry(thread.calls()[0], thread)
    assert isinstance(receipt, Receipt) and receipt.status == "denied"
    assert (receipt.reason, receipt.guard) == ("destructive command", "policy")


def test_an_error_without_a_kind_it_can_draw_is_its_text_stack_trace_cut() -> None:
    result = view(CASES["error_text_cut"]())  # kind "pi.tool.bash": no surface has one
    assert result.state == "error" and result.header.status == "error"
    assert isinstance(result.body, ErrorBody)
    assert "ValueError: bad" in result.body.message.text
    assert "File" not in result.body.message.text
    assert result.body.truncated == Truncation(3, 4003, "lines")  # cut error output says so


def test_an_error_whose_descriptor_validates_keeps_its_kind_inside_the_error_frame() -> None:
    result = view(CASES["error_failed_command"]())
    assert result.state == "error" and result.header.display == STATUS_DISPLAY["error"]
    assert isinstance(result.body, ErrorBody) and result.body.kind is not None
    props = result.body.kind.props
    assert isinstance(props, ShellProps) and props.exit_code == 1
    assert props.stderr == "warning: slow test\nerror: 1 test failed\n"
    assert result.body.kind.truncated == Truncation(200, 4200, "lines")
    assert result.header.duration_ms == 3400  # the header reads the kind inside the frame


def test_an_error_with_invalid_props_is_its_text_and_keeps_the_truncation() -> None:
    props = {"command": "ls", "exitCode": "1", "stdout": "", "stderr": ""}
    cut = Truncation(10, 20, "lines")
    thread = call_thread(text="boom", kind="shell", props=props, truncated=cut, is_error=True)
    result = view(thread)
    assert isinstance(result.body, ErrorBody) and result.body.kind is None
    assert result.body.message.text == "boom" and result.body.truncated == cut
    assert result.header.kind is None


def test_the_header_never_says_the_kind_or_the_command_twice() -> None:
    result = view(CASES["error_failed_command"]())  # tool "shell", args {"command": "pytest -q"}
    assert result.header.kind is None  # not "shell · shell"
    assert result.header.args is None  # the body shows it as "$ pytest -q"
    props = {"command": "ls", "exitCode": 0, "stdout": "", "stderr": ""}
    more = call_thread(args={"command": "ls", "timeout": 5}, kind="shell", props=props)
    assert view(more).header.args == '{ "timeout": 5 }'
    other = call_thread(args={"command": "ls -a"}, kind="shell", props=props)
    assert view(other).header.args == '{ "command": "ls -a" }'  # not what the body shows
    plain = call_thread(tool="shell", args={"command": "ls"}, text="x")
    assert view(plain).header.args == '{ "command": "ls" }'  # no "$ …" below: kept


def test_error_envelope_gives_summary_code_and_an_error_family_status() -> None:
    result = view(CASES["envelope_error"]())
    assert result.header.status == "denied"
    assert isinstance(result.body, ErrorBody)
    assert result.body.message.text == "not allowed" and result.body.error_code == "E_DENIED"


def test_a_kind_gets_validated_props_and_header_data() -> None:
    result = view(CASES["shell"]())
    assert isinstance(result.body, KindBody) and isinstance(result.body.props, ShellProps)
    assert result.header.kind == "shell" and result.header.duration_ms == 1500
    assert result.header.args is None  # its only argument is the command, shown as "$ ls"
    assert result.header.display == STATUS_DISPLAY["success"]


def test_invalid_props_fall_back_with_a_note() -> None:
    result = view(CASES["invalid_props"]())
    assert isinstance(result.body, FallbackBody)
    assert result.body.note is not None and "props invalid for kind 'shell'" in result.body.note
    assert result.body.text.text == "plain text"


def test_a_malformed_descriptor_falls_back_with_a_note() -> None:
    thread = Thread()
    thread.add(RunStarted("r"))
    thread.add(ToolCall("c1", "t", {}))
    thread.add(ToolResult("c1", "t", "the text", True, False), descriptor_error="$.x: bad")
    result = view(thread)
    assert isinstance(result.body, FallbackBody)
    assert result.body.note == "malformed descriptor ($.x: bad)"


def test_envelope_text_without_descriptor_renders_as_envelope_with_its_status() -> None:
    result = view(CASES["envelope"]())
    assert isinstance(result.body, KindBody) and result.body.kind == "envelope"
    assert result.header.status == "success"
    not_found = call_thread(text='{"schemaVersion":"1.0","tool":"t","status":"not_found"}')
    assert view(not_found).header.status == "not_found"


def test_a_descriptor_of_kind_envelope_drives_the_status_too() -> None:
    props = {"schemaVersion": "1.0", "tool": "t", "status": "timeout"}
    result = view(call_thread(text="x", kind="envelope", props=props))
    assert result.header.status == "timeout"


def test_an_empty_success_says_so_in_words() -> None:
    result = view(CASES["empty"]())
    assert result.body == EmptyBody("(no output)")


def test_plain_text_without_descriptor_is_the_fallback_without_a_note() -> None:
    result = view(CASES["plain"]())
    assert isinstance(result.body, FallbackBody) and result.body.note is None


def test_an_unknown_kind_with_empty_text_is_never_blank() -> None:
    result = view(call_thread(text="", kind="acme.x"))
    assert isinstance(result.body, KindBody)


def test_status_is_never_inferred_from_text() -> None:
    result = view(call_thread(text="ERROR: everything failed", kind="json", props={"value": 1}))
    assert result.header.status == "success"


def test_header_fields_are_cleaned() -> None:
    thread = Thread.from_observations(
        [
            RunStarted("r"),
            ToolCall("c\x1b]0;x\x07", "to\x1b[31mol", {"password": "hunter2"}),
            ToolResult(
                "c\x1b]0;x\x07", "to\x1b[31mol", "x", True, False, Descriptor("json", {"value": 1})
            ),
        ]
    )
    result = view(thread)
    assert "\x1b" not in result.header.tool_name + result.tool_call_id
    assert result.header.args is not None and "hunter2" not in result.header.args


def test_every_sample_s_header_status_is_call_status_s() -> None:
    """A refactor guard: the view reads ``call_status``, it derives no status of its own."""
    for name, build in CASES.items():
        thread = build()
        for entry in thread.calls():
            decided = view_entry(entry, thread)
            if isinstance(decided, CallView):
                assert decided.header.status == call_status(entry, thread.state(entry)), name


def test_the_text_kind_is_the_text_and_its_cut_on_every_surface() -> None:
    """``text`` (``contract.TEXT_KIND``) carries a truncation for a result that is only its
    text: drawn as the text with no fallback note, the cut said (base: "no renderer")."""
    from toolview.contract import TEXT_KIND
    from toolview.render import markdown, terminal, text
    from toolview.render.html import render_thread_html

    cut = Truncation(shown=90, total=1_000_000, unit="lines")
    thread = call_thread(
        tool="read",
        text="first\n… 999,910 lines omitted …\nlast\n",
        kind=TEXT_KIND,
        props={},
        truncated=cut,
    )
    body = view(thread).body
    assert isinstance(body, FallbackBody) and body.note is None and body.truncated == cut
    for render in (text.render_thread, markdown.render_thread, terminal.render_thread):
        out = render(thread)
        assert "first" in out and "last" in out and "999,910 more lines" in out
        assert "renderer" not in out
    page = render_thread_html(thread)
    assert "999,910 more lines" in page and "tv-fallback-note" not in page
