"""Cut stack traces down to the line that says what went wrong.

A trace is mostly frames: long, noisy, and a common place for paths, user
names and environment details to leak. The reader needs the exception line
(``ValueError: bad``); the frames are replaced by one visible marker so it is
clear something was cut. Text around the trace is kept as it is.

Recognised: Python (``Traceback (most recent call last):``, chained ones
included), JavaScript (``    at fn (file:1:2)``), Java (``\\tat a.B.c(B.java:1)``,
``... 5 more``), Go (``goroutine 1 [running]:``) and Rust
(``stack backtrace:``). Line-based, linear, never raises.
"""

from __future__ import annotations

from toolview.safety.patterns import LazyRegex

__all__ = ["cut_stack_trace", "trace_marker"]

_PY_HEAD = "Traceback (most recent call last):"
_PY_CHAIN = (
    "During handling of the above exception",
    "The above exception was the direct cause",
)
_TRIGGERS = (_PY_HEAD, "    at ", "\tat ", "goroutine ", "stack backtrace:")
_FRAME = LazyRegex(
    r"[ \t]+(?:at (?:async )?\S.*(?:\)|:\d+)"
    r"|\.\.\. \d+ (?:more|lines matching cause stack trace\.\.\.))[ \t]*\r?"
)
_GO_HEAD = LazyRegex(r"goroutine \d+ \[[^\]\n]*\]:\r?")


def trace_marker(lines: int) -> str:
    """The line that stands in for the cut frames."""
    return f"[stack trace cut: {lines} line{'s' if lines != 1 else ''}]"


def _indented(line: str) -> bool:
    return line.startswith((" ", "\t"))


def _python(lines: list[str], i: int) -> int | None:
    """Cut from the header to the last exception line of the (chained) trace."""
    if not lines[i].rstrip().endswith(_PY_HEAD):
        return None
    j = i + 1
    while True:
        while j < len(lines) and _indented(lines[j]):
            j += 1
        exception = j
        nxt = _next_python_head(lines, exception + 1)
        if nxt is None:
            return exception
        j = nxt + 1


def _next_python_head(lines: list[str], start: int) -> int | None:
    """The header of a chained trace shortly after an exception line, if any."""
    for k in range(start, min(start + 20, len(lines))):
        if lines[k].startswith(_PY_CHAIN):
            for m in range(k + 1, min(k + 4, len(lines))):
                if lines[m].rstrip().endswith(_PY_HEAD):
                    return m
            return None
    return None


def _frames(lines: list[str], i: int) -> int | None:
    """A run of two or more JS/Java frame lines (the message line before stays)."""
    j = i
    while j < len(lines) and _FRAME.fullmatch(lines[j]):
        j += 1
    return j if j - i >= 2 else None


def _go(lines: list[str], i: int) -> int | None:
    """From ``goroutine N [...]:`` over frames and further goroutines."""
    if not _GO_HEAD.fullmatch(lines[i]):
        return None
    j = i + 1
    while j < len(lines):
        line = lines[j].rstrip("\r")
        if not line:
            if j + 1 < len(lines) and _GO_HEAD.fullmatch(lines[j + 1]):
                j += 1
                continue
            break
        if not (
            _indented(line)
            or line.endswith((")", "..."))
            or line.startswith(("created by ", "goroutine "))
        ):
            break
        j += 1
    return j


def _rust(lines: list[str], i: int) -> int | None:
    """From ``stack backtrace:`` over its indented frames."""
    if lines[i].strip() != "stack backtrace:":
        return None
    j = i + 1
    while j < len(lines) and _indented(lines[j]):
        j += 1
    return j


def cut_stack_trace(text: str) -> str:
    """Replace the frames of every stack trace in ``text`` with
    ``[stack trace cut: N lines]``, keeping the exception line and the text
    around it. Text without a trace is returned unchanged (the same object)."""
    if not any(trigger in text for trigger in _TRIGGERS):
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        end = _python(lines, i) or _go(lines, i) or _rust(lines, i) or _frames(lines, i)
        if end is None or end <= i:
            out.append(lines[i])
            i += 1
            continue
        out.append(trace_marker(end - i))
        i = end
    return "\n".join(out)
