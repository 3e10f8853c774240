"""``run_shell_command``'s answer → the ``shell`` kind, failure and all.

Gemini CLI records a command that exited non-zero as a *successful* call
(``status: "success"``): the exit code lives only in the text it sent the
model, ``Output: …`` followed by ``Exit Code: N``, ``Signal: …``,
``Background PIDs: …`` and ``Process Group PGID: …`` lines (each only when it
applies), all wrapped in ``<untrusted_context>`` since 0.5x. So the text is
read from its end: those trailing lines are the CLI's, whatever the command
printed above them. No ``Exit Code`` line and no cancel or background words
means it exited 0. Output is stdout and stderr combined (one pty), so it is
``stdout``; ``stderr`` stays empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import msgspec

from toolview.contract import Descriptor, ShellProps

__all__ = ["ShellAnswer", "shell_answer", "shell_descriptor", "unwrap"]

_OPEN: Final = "<untrusted_context>\n"
_CLOSE: Final = "\n</untrusted_context>"
_ESCAPED: Final = "&lt;/untrusted_context&gt;"
_TAIL: Final = re.compile(
    r"\A(?:Exit Code: (?P<code>-?\d{1,11})|Signal: (?P<signal>.{1,40})"
    r"|Background PIDs: [\d, ]{1,400}|Process Group PGID: \d{1,11})\Z"
)
_BACKGROUND: Final = re.compile(r"\ACommand moved to background \(PID: (?P<pid>\d{1,11})\)")
_CANCELLED: Final = ("Command was cancelled", "Command was automatically cancelled")
_OUTPUT: Final = "Output: "
_EMPTY: Final = "(empty)"


def unwrap(text: str) -> str:
    """``text`` without the ``<untrusted_context>`` wrapper Gemini CLI puts around a
    tool's output (and with the closing tag it escaped inside put back)."""
    if text.startswith(_OPEN) and text.endswith(_CLOSE):
        return text[len(_OPEN) : -len(_CLOSE)].replace(_ESCAPED, "</untrusted_context>")
    return text


@dataclass(frozen=True)
class ShellAnswer:
    """What a shell call's text says: its output, the exit code and how it ended."""

    output: str
    exit_code: int | None
    interrupted: bool = False
    background: str | None = None

    @property
    def failed(self) -> bool:
        """A non-zero exit, a signal or a cancel: the call failed whatever its status."""
        return self.interrupted or self.exit_code not in (None, 0)


def shell_answer(text: str) -> ShellAnswer:
    """Read a ``run_shell_command`` answer (already unwrapped)."""
    background = _BACKGROUND.match(text)
    if background is not None:
        return ShellAnswer(text, None, background=background.group("pid"))
    if text.startswith(_CANCELLED):
        return ShellAnswer(text, None, interrupted=True)
    lines = text.split("\n")
    code: int | None = 0
    signalled = False
    while len(lines) > 1 and (found := _TAIL.match(lines[-1])) is not None:
        lines.pop()
        if found.group("code") is not None:
            code = int(found.group("code"))
        signalled = signalled or found.group("signal") is not None
    body = "\n".join(lines)
    if not body.startswith(_OUTPUT):  # not the CLI's shape: the text as it is, code unknown
        return ShellAnswer(text, None)
    output = body[len(_OUTPUT) :]
    output = "" if output == _EMPTY else output
    return ShellAnswer(output, None if signalled and code == 0 else code, interrupted=signalled)


def shell_descriptor(command: str, answer: ShellAnswer) -> Descriptor:
    """The ``shell`` body of the call: the command, its output and exit code."""
    props = ShellProps(
        command=command,
        exit_code=answer.exit_code,
        stdout=answer.output,
        stderr="",
        interrupted=True if answer.interrupted else msgspec.UNSET,
        background_task_id=answer.background or msgspec.UNSET,
    )
    return Descriptor("shell", props)
