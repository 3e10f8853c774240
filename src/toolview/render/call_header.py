"""A call's header, decided once for every surface: what is said above the body.

The tool name, the display status from the one status table, the kind and
the duration its props know (else the time from the call's ``at`` to its
final result's ``at``, when both are known), the call's arguments,
bounded and redacted, its gist (``render.gist``) and when it was made.
Nothing is said twice: a kind that only repeats the tool name (``shell ·
shell``) is left out, and so are the arguments the kind body shows just
under it (``render.shown_args``: a Bash command, a Read's path, an Edit's strings).
"""

from __future__ import annotations

from typing import Final

from toolview.contract import STATUS_DISPLAY, CallEntry, DisplayStatus, ShellProps, ToolResult
from toolview.contract.moments import format_at, parse_at, span_ms
from toolview.render.bodies import Header, KindBody
from toolview.render.clean import clean_field
from toolview.render.gist import call_gist
from toolview.render.jsonview import args_preview
from toolview.render.limits import Limits
from toolview.render.shown_args import args_not_shown

__all__ = ["call_header"]

_NAME_CHARS: Final = 200


def call_header(
    entry: CallEntry, status: DisplayStatus, body: KindBody | None, limits: Limits
) -> Header:
    """The header of ``entry``; ``body`` is the kind it is drawn with, if any.

    ``body`` is the kind body of a done call or the one inside an error's
    frame: either way its kind and duration belong in the header.
    """
    tool_name = clean_field(entry.tool_name or "(unnamed tool)", _NAME_CHARS)
    kind = clean_field(body.kind, _NAME_CHARS) if body is not None else None
    args = _args(entry, body, limits)
    return Header(
        tool_name=tool_name,
        status=status,
        display=STATUS_DISPLAY[status],
        duration_ms=_duration(body, entry),
        args=args,
        kind=None if kind == tool_name else kind,
        gist=call_gist(entry, body, args),
        at=_at(entry),
    )


def _at(entry: CallEntry) -> str | None:
    """The call's time in the contract's form, read back (so nothing odd reaches a page)."""
    moment = parse_at(entry.call.at) if entry.call is not None else None
    return format_at(moment) if moment is not None else None


def _duration(body: KindBody | None, entry: CallEntry) -> int | None:
    """What the tool measured, else what the host's clock saw; ``None`` when neither is known."""
    if body is not None and isinstance(body.props, ShellProps):
        duration = body.props.duration_ms
        if isinstance(duration, int):
            return duration
    result = entry.result
    if entry.call is None or not isinstance(result, ToolResult) or not result.complete:
        return None
    return span_ms(entry.call.at, result.at)


def _args(entry: CallEntry, body: KindBody | None, limits: Limits) -> str | None:
    """The call's arguments, less the ones the kind body shows (``render.shown_args``)."""
    if entry.call is None:
        return None
    props = body.props if body is not None else None
    return args_preview(args_not_shown(entry.call.args, props), limits)
