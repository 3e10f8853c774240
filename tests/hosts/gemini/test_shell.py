"""``run_shell_command``'s text: Gemini CLI records a failed command as a "success", so the
exit code, a signal, a cancel or a background start is read from the text's own lines."""

from __future__ import annotations

import pytest

from toolview.hosts.gemini.shell import ShellAnswer, shell_answer, unwrap


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("Output: hi\nProcess Group PGID: 7", ShellAnswer("hi", 0)),
        ("Output: a\nb\nExit Code: 3\nProcess Group PGID: 9", ShellAnswer("a\nb", 3)),
        ("Output: (empty)\nExit Code: 1", ShellAnswer("", 1)),
        # a command that printed the CLI's words itself: only the trailing lines are the CLI's
        ("Output: Exit Code: 5\ndone\nProcess Group PGID: 2", ShellAnswer("Exit Code: 5\ndone", 0)),
        ("Output: x\nSignal: 9\nProcess Group PGID: 4", ShellAnswer("x", None, interrupted=True)),
        (
            "Command was cancelled by user before it could complete. There was no output.",
            ShellAnswer(
                "Command was cancelled by user before it could complete. There was no output.",
                None,
                interrupted=True,
            ),
        ),
        (
            "Command moved to background (PID: 41). Output hidden. Press Ctrl+B to view.",
            ShellAnswer(
                "Command moved to background (PID: 41). Output hidden. Press Ctrl+B to view.",
                None,
                background="41",
            ),
        ),
        ("something else", ShellAnswer("something else", None)),
    ],
)
def test_the_answer_is_read_from_the_clis_lines(text: str, answer: ShellAnswer) -> None:
    assert shell_answer(text) == answer


def test_failed_is_a_non_zero_exit_or_an_interruption() -> None:
    assert [shell_answer(t).failed for t in ("Output: a", "Output: a\nExit Code: 2")] == [
        False,
        True,
    ]
    assert ShellAnswer("", None, interrupted=True).failed


def test_unwrap_takes_off_the_untrusted_context_and_puts_back_an_escaped_close() -> None:
    wrapped = "<untrusted_context>\nOutput: &lt;/untrusted_context&gt;\n</untrusted_context>"
    assert unwrap(wrapped) == "Output: </untrusted_context>"
    assert unwrap("Output: plain") == "Output: plain"
