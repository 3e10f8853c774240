"""What a caller hands a recorder, made safe to record: ids, args, results, errors.

Why a visible fallback instead of an exception: a recorder runs inside someone
else's agent; a bad id or an unencodable argument must not break the agent,
and must not vanish either — it shows, marked, in the thread. (Redaction is
the recorder's, on every observation: ``recording.redaction``.)
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from toolview.contract import Descriptor, RunOutcome
from toolview.contract.describe import describe
from toolview.contract.interrupted import interrupted_reason
from toolview.contract.plain import to_plain

__all__ = ["call_args", "clean_id", "error_text", "result_parts", "run_end", "tokens"]

_D = TypeVar("_D")


def clean_id(value: object, fallback: str) -> str:
    """A plain ``str`` for an id, a name or a text (``fallback`` for none or an empty one)."""
    try:
        text = str(value) if value is not None else ""
    except Exception:
        text = f"<unprintable {type(value).__name__}>"
    return text if text else fallback


def call_args(args: object) -> dict[str, Any]:
    """A call's arguments as a JSON object (``{"value": …}`` for a non-mapping)."""
    if args is None:
        return {}
    try:
        plain = to_plain(dict(args) if isinstance(args, Mapping) else {"value": args})
    except Exception as exc:
        plain = {"value": f"<arguments could not be read: {type(exc).__name__}>"}
    return plain if isinstance(plain, dict) else {"value": plain}


def error_text(exc: BaseException | str) -> str:
    """An error's type and message — never a traceback."""
    if not isinstance(exc, BaseException):
        return clean_id(exc, "error")
    message = clean_id(exc, "")
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def result_parts(
    value: object, descriptor: object, tool: str, args: Mapping[str, object]
) -> tuple[str, Descriptor | None]:
    """The text and the descriptor of a result: the caller's descriptor, else described.

    A ``descriptor`` that is not one is not used; the result says so in its text.
    """
    text, found = describe(value, tool=tool, args=args)
    if isinstance(descriptor, Descriptor):
        return text, descriptor
    if descriptor is not None:
        note = f"[note: the descriptor given was a {type(descriptor).__name__}, not a Descriptor]"
        return f"{text}\n{note}" if text else note, found
    return text, found


def tokens(value: object, absent: _D | int = 0) -> int | _D:
    """A token count as a non-negative int; ``absent`` for ``None``, 0 for a bad one."""
    if value is None:
        return absent
    try:
        return max(0, int(value))  # type: ignore[call-overload,no-any-return]
    except (TypeError, ValueError, OverflowError):
        return 0


def run_end(exc: BaseException | None, still_open: int) -> tuple[RunOutcome, Any]:
    """How a run ended and why: an exception's type and message (Ctrl-C: interrupted by
    SIGINT), or how many calls never got a result; ``UNSET``: nothing to say."""
    if isinstance(exc, KeyboardInterrupt):
        return "aborted", interrupted_reason(signal.SIGINT)
    if isinstance(exc, Exception):
        return "error", error_text(exc)
    if exc is not None:  # CancelledError, SystemExit, GeneratorExit: stopped, not failed
        return "aborted", error_text(exc)
    if still_open:
        plural = "s" if still_open != 1 else ""
        return "completed", f"the run ended with {still_open} call{plural} still without a result"
    return "completed", msgspec.UNSET
