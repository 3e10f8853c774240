"""``LiveCalls``: what the live view shows while calls run (rendered at a fixed width)."""

from __future__ import annotations

import io

from rich.console import Console

from toolview.contract import RunEnded, RunStarted, ToolCall, ToolRefused, ToolResult
from toolview.render.terminal.live import LiveCalls, call_label, live_view, print_thread


def shown(calls: LiveCalls) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None, force_terminal=False)
    console.print(calls)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


def partial(call: str, text: str) -> ToolResult:
    return ToolResult(call, "bash", text, complete=False, is_error=False)


def test_a_running_call_shows_its_label_and_the_tail_of_its_output() -> None:
    calls = LiveCalls()
    calls.observe(RunStarted("r1"))
    calls.observe(ToolCall("c1", "bash", {"command": "make test"}))
    calls.observe(partial("c1", "".join(f"out-{n}\n" for n in range(1, 101))))
    text = shown(calls)
    assert "Running" in text and "make test" in text
    assert "out-100" in text and "out-89" in text and "out-88\n" not in text
    assert "88 more lines" in text  # what the tail left out is said, not hidden
    assert calls.running == 1


def test_finished_refused_and_ended_calls_leave_the_view() -> None:
    calls = LiveCalls()
    for n in (1, 2, 3):
        calls.observe(ToolCall(f"c{n}", "bash", {"command": f"step {n}"}))
    calls.observe(ToolResult("c1", "bash", "ok", complete=True, is_error=False))
    calls.observe(ToolRefused("c2", "bash", "no"))
    assert calls.running == 1 and "step 3" in shown(calls) and "step 1" not in shown(calls)
    calls.observe(RunEnded("r1", "aborted"))
    assert calls.running == 0 and "Running" not in shown(calls)


def test_a_late_partial_never_revives_a_finished_call() -> None:
    calls = LiveCalls()
    calls.observe(ToolCall("c1", "bash", {"command": "make"}))
    calls.observe(ToolResult("c1", "bash", "done", complete=True, is_error=False))
    calls.observe(partial("c1", "a chunk that arrived late\n"))
    assert calls.running == 0 and "Running" not in shown(calls)


def test_a_run_ending_stops_only_its_own_calls() -> None:
    calls = LiveCalls()
    calls.observe(RunStarted("r1"))
    calls.observe(ToolCall("c1", "bash", {"command": "first"}))
    calls.observe(RunStarted("r2"))
    calls.observe(ToolCall("c2", "bash", {"command": "second"}))
    calls.observe(RunEnded("r1", "aborted"))
    assert calls.running == 1 and "second" in shown(calls) and "first" not in shown(calls)


def test_a_partial_before_its_call_shows_under_the_tool_name() -> None:
    calls = LiveCalls()
    calls.observe(partial("c1", "so far\n"))
    text = shown(calls)
    assert "Running" in text and "bash" in text and "so far" in text
    calls.observe(ToolCall("c1", "bash", {"command": "make all"}))
    assert "make all" in shown(calls) and calls.running == 1


def test_several_calls_share_the_screen() -> None:
    calls = LiveCalls()
    for n in range(4):
        calls.observe(ToolCall(f"c{n}", "read", {"path": f"f{n}.txt"}))
        calls.observe(partial(f"c{n}", "".join(f"c{n}-line-{i}\n" for i in range(20))))
    text = shown(calls)
    assert text.count("Running") == 4
    assert "c0-line-19" in text and "c0-line-16" not in text  # 3 lines each, not 12


def test_untrusted_labels_and_output_are_cleaned() -> None:
    calls = LiveCalls()
    calls.observe(ToolCall("c1", "bash", {"command": "echo \x1b]0;pwned\x07 hi"}))
    calls.observe(partial("c1", "x \x1b[2J token ghp_" + "a" * 36 + "\n"))
    text = shown(calls)
    assert "\x1b" not in text and "\x07" not in text
    assert "ghp_aaaa" not in text and "redacted" in text


def test_labels() -> None:
    assert call_label(ToolCall("c", "shell", {"command": "ls\n-la"})) == "ls -la"
    label = call_label(ToolCall("c", "read", {"path": "a.txt"}))
    assert label == 'read {"path": "a.txt"}'
    assert len(call_label(ToolCall("c", "shell", {"command": "x" * 5000}))) < 400


def test_no_live_view_off_a_terminal_and_the_final_render_is_plain() -> None:
    console = Console(file=io.StringIO(), width=60)
    with live_view(console, LiveCalls()) as live:
        assert live is None
    print_thread(
        console,
        [
            ToolCall("c1", "shell", {"command": "echo"}),
            ToolResult("c1", "shell", "[bold]x[/]", complete=True, is_error=False),
        ],
    )
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[bold]x[/]" in output and "\x1b" not in output
