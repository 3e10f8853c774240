"""A call cut short by a signal, as a final result: interrupted is not empty.

Why in the contract: every host that runs a call in the foreground (the
command runner, ``toolview pi``, ``toolview mcp call``) ends it the same way
when the person presses Ctrl-C — the output so far becomes the call's FINAL
result, an error whose text ends ``interrupted by SIGINT``, and a ``shell``
descriptor says exit code 128 + the signal's number (the shell's convention:
130 for SIGINT, 143 for SIGTERM). One definition, so a recording, a server
thread and every surface read an interrupted call alike.
"""

from __future__ import annotations

import signal

import msgspec

from toolview.contract.call_state import IN_FLIGHT
from toolview.contract.descriptor import Descriptor
from toolview.contract.kinds import ShellProps
from toolview.contract.observations import ToolCall, ToolResult
from toolview.contract.thread import Thread

__all__ = [
    "interrupted_calls",
    "interrupted_exit_code",
    "interrupted_reason",
    "interrupted_result",
]


def interrupted_reason(signum: int) -> str:
    """``interrupted by SIGINT``: what the run's end and the call's text say."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return f"interrupted by {name}"


def interrupted_exit_code(signum: int) -> int:
    """128 + the signal's number: what a shell reports for a command a signal ended."""
    return 128 + signum


def interrupted_result(
    call: ToolCall | ToolResult, so_far: ToolResult | None, signum: int
) -> ToolResult:
    """The final result of ``call``, cut short by ``signum``, from its output ``so_far``.

    ``so_far`` is the last partial (or a result built from the output so far;
    None when nothing came). Its descriptor is kept; a ``shell`` one gets the
    exit code (props that are not a shell's are left as they are).
    """
    reason = interrupted_reason(signum)
    text = so_far.text if so_far is not None else ""
    glue = "\n" if text and not text.endswith("\n") else ""
    descriptor = so_far.descriptor if so_far is not None else msgspec.UNSET
    if isinstance(descriptor, Descriptor) and descriptor.kind == "shell":
        descriptor = _with_exit_code(descriptor, interrupted_exit_code(signum))
    return ToolResult(
        tool_call_id=call.tool_call_id,
        tool_name=call.tool_name,
        text=f"{text}{glue}{reason}\n",
        complete=True,
        is_error=True,
        descriptor=descriptor,
    )


def interrupted_calls(thread: Thread, signum: int) -> list[ToolResult]:
    """A final result for every call of ``thread`` still pending, cut short by ``signum``.

    What a host sends before its ``run-ended`` when the person stopped the run:
    each call in flight keeps the output it had (its last partial).
    """
    finals = []
    for entry in thread.calls():
        if thread.state(entry) not in IN_FLIGHT:
            continue
        known = entry.call if entry.call is not None else entry.result
        so_far = entry.result if isinstance(entry.result, ToolResult) else None
        if isinstance(known, ToolCall | ToolResult):
            finals.append(interrupted_result(known, so_far, signum))
    return finals


def _with_exit_code(descriptor: Descriptor, exit_code: int) -> Descriptor:
    try:
        props = msgspec.convert(descriptor.props, ShellProps, strict=True)
    except msgspec.ValidationError:
        return descriptor
    shell = msgspec.structs.replace(props, exit_code=exit_code)
    return msgspec.structs.replace(descriptor, props=msgspec.to_builtins(shell))
