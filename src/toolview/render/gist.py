"""A call's gist: the one line that says what it did, for a collapsed call's summary.

Why: a collapsed call shows only its summary line, so that line must say
what the call was about without opening it — the command of a shell call,
the path of a file or a diff, else the first line of its result (when no
kind draws it: a kind's text is what its props replace), else of its
arguments. It is a *field* (``clean.clean_field``): redacted, terminal
controls neutralised, on one line, cut to ``GIST_CHARS``. Only the head of a
text is read (never a whole 100 MB result). A result that is JSON gives no
gist of its own (an envelope gives its summary): a secret under a key
(``"password": …``) inside it, or inside a JSON string in it, is redacted
by the JSON view of its body, by key, which a line's patterns cannot do; the
arguments' line (redacted by key) stands in for it.
"""

from __future__ import annotations

from typing import Final

from toolview.contract import CallEntry, DiffProps, Envelope, FileProps, ShellProps, ToolResult
from toolview.render.bodies import KindBody
from toolview.render.clean import clean_field

__all__ = ["GIST_CHARS", "call_gist"]

GIST_CHARS: Final = 160
# How much of a text is read to find its first non-blank line.
_HEAD: Final = 4096
# Arguments that name what a call without a descriptor ran or touched.
_COMMAND_ARGS: Final = ("command", "cmd")
_PATH_ARGS: Final = ("file_path", "path", "filePath", "notebook_path", "url", "pattern", "query")


def call_gist(entry: CallEntry, body: KindBody | None, args: str | None) -> str | None:
    """The gist of ``entry`` drawn with ``body`` (its kind, if any); ``args``: its args line.

    ``None`` when the call says nothing at all (no result text, no arguments).
    """
    result = _result_line(_result_text(entry)) if body is None else ""
    raw = _named(body, entry) or result or (args or "")
    return clean_field(_first_line(raw), GIST_CHARS, "space") if raw else None


def _result_line(text: str) -> str:
    """The result's first line; nothing for a result that is JSON."""
    head = text[:_HEAD].lstrip()
    return "" if head.startswith(("{", "[")) else _first_line(head)


def _named(body: KindBody | None, entry: CallEntry) -> str | None:
    """The command or path the call's kind (else its arguments) names."""
    props = body.props if body is not None else None
    if isinstance(props, ShellProps):
        return _first_line(props.command)
    if isinstance(props, FileProps | DiffProps) and isinstance(props.path, str):
        return _first_line(props.path)
    if isinstance(props, Envelope) and isinstance(props.summary, str):
        return _first_line(props.summary)
    call_args = entry.call.args if entry.call is not None else {}
    for key in (*_COMMAND_ARGS, *_PATH_ARGS):
        value = call_args.get(key)
        if isinstance(value, str) and value.strip():
            return _first_line(value)
    return None


def _result_text(entry: CallEntry) -> str:
    result = entry.result
    return result.text if isinstance(result, ToolResult) else ""


def _first_line(text: str) -> str:
    """The first line of ``text`` holding more than blanks, from its head only."""
    for line in text[:_HEAD].splitlines():
        if line.strip():
            return line.strip()
    return ""
