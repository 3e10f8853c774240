"""Bash (and BashOutput, a background shell read later) → the ``shell`` kind.

``toolUseResult`` keeps stdout and stderr apart, whether the command was
interrupted and its background task id. The exit code is not recorded as a
number: a failed command is an error result whose text starts ``Exit code
N``; a success without a ``returnCodeInterpretation`` exited 0 (Claude Code
reports any other code as an error); otherwise the code is unknown (``null``).
An output over 30,000 characters is stored apart (see ``_kept``).

A failed command ran: it keeps the ``shell`` body (command, output, exit code)
inside the error frame, as a Codex failed command does, and its text is the
output without the ``Exit code N`` line, now the exit code's props: the body
then holds the text and surfaces do not draw the output twice (``render.
error_lead``). An error that is no command's exit (a refusal, a hook's denial)
keeps its text alone: it has no output to draw.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolview.contract import Descriptor, ImageProps, ShellProps, Truncation
from toolview.hosts.claude_code.finished import Finished, Mapped, get_int, get_str

__all__ = ["bash", "bash_output", "exit_said"]

_EXIT_PREFIX = "Exit code "


def _error_exit(text: str) -> tuple[int | None, str]:
    """The ``Exit code N`` first line of a failed command's text, and the rest."""
    if not text.startswith(_EXIT_PREFIX):
        return None, text
    first, _, rest = text.partition("\n")
    number = first[len(_EXIT_PREFIX) :].strip()
    if number.lstrip("-").isdigit() and len(number) < 12:
        return int(number), rest
    return None, text


def exit_said(text: str, detail: object) -> bool:
    """Whether a Bash result's text says the command exited non-zero, in Claude Code's words.

    Claude Code 2.1 flags such a result ``is_error`` itself; a result that says
    ``Exit code N`` without the flag is a failure all the same (design §3: a
    non-zero exit is an error whatever the flag says). The line must be Claude
    Code's, not the command's: a command that printed ``Exit code 5`` has it at
    the start of its own stdout.
    """
    code, _ = _error_exit(text)
    if code in (None, 0):
        return False
    stdout = detail.get("stdout") if isinstance(detail, Mapping) else None
    return not (isinstance(stdout, str) and stdout.startswith(text.partition("\n")[0]))


def _kept(done: Finished, stdout: str | None) -> tuple[str | None, Truncation | None]:
    """Over 30,000 characters, ``stdout`` is only its head: the stored file has it all.

    Read, the stored file is the output; missing, the head is what there is,
    and how much more there was (``persistedOutputSize``) is truncation data.
    """
    if done.stored is True:
        return done.text, None
    size = get_int(done.details, "persistedOutputSize")
    if done.stored is False and stdout is not None and size is not None:
        shown = len(stdout.encode("utf-8", errors="replace"))
        return stdout, Truncation(shown=shown, total=size, unit="bytes") if shown < size else None
    return stdout, None


def bash(done: Finished) -> Mapped | None:
    """A shell descriptor from the command and its output."""
    command = get_str(done.args, "command")
    if command is None:
        return None
    details = done.details
    if details.get("isImage") is True and len(done.images) == 1:
        image = done.images[0]  # the command printed an image: its data is no shell output
        shown = ImageProps(mime_type=image.mime_type, data=image.data, alt=command)
        return Descriptor(kind="image", props=shown), done.text
    stdout, stderr = get_str(details, "stdout"), get_str(details, "stderr")
    stdout, cut = _kept(done, stdout)
    interrupted = details.get("interrupted") is True
    task = get_str(details, "backgroundTaskId")
    text = done.text
    if done.is_error:
        exit_code, text = _error_exit(done.text)  # the text without its ``Exit code N`` line
        if exit_code is None and stdout is None:
            return None  # refused or denied: the command never ran
        if stdout is None:
            stdout, stderr = text, ""
    elif interrupted or task or "returnCodeInterpretation" in details:
        exit_code = None
    else:
        exit_code = 0
    if stdout is None:
        stdout, stderr = done.text, ""
    props = ShellProps(
        command=command,
        exit_code=exit_code,
        stdout=stdout,
        stderr=stderr or "",
        interrupted=True if interrupted else msgspec.UNSET,
        background_task_id=task if task else msgspec.UNSET,
    )
    return Descriptor(kind="shell", props=props, truncated=cut or msgspec.UNSET), text


def bash_output(done: Finished) -> Mapped | None:
    """A background shell's output read back: ``shell`` with what it says of the exit."""
    details = done.details
    stdout = get_str(details, "stdout")
    if stdout is None or done.is_error:
        return None
    command = get_str(details, "command") or get_str(done.args, "bash_id") or ""
    props = ShellProps(
        command=command,
        exit_code=get_int(details, "exitCode"),
        stdout=stdout,
        stderr=get_str(details, "stderr") or "",
        background_task_id=get_str(details, "shellId") or msgspec.UNSET,
    )
    return Descriptor(kind="shell", props=props), done.text
