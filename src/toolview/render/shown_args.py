"""Arguments a kind's body already shows, left off the args line above it.

Why: a card that prints a Read's path, an Edit's strings or a Bash command
on its args line and again in the body just under it is read twice and is
twice as tall. The rule is decided here once, for the header every surface
draws (``render.call_header``): an argument goes only when the body shows
that very value — a Bash ``command`` equal to the ``$ …`` line, a path equal
to the file or diff's path, a file's content equal to the content drawn, a
string every line of which is in the diff. Any other argument stays, and so
does one that differs from what the body shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from toolview.contract import DiffProps, FileProps, ShellProps
from toolview.render.limits import EXACT_COUNT_CHARS

__all__ = ["args_not_shown"]

# Past this size a diff is not searched for an argument's lines: the args line keeps
# it, so the cost of drawing a header stays bounded by the header.
_DIFF_CHARS: Final = EXACT_COUNT_CHARS


def args_not_shown(args: Mapping[str, Any], props: object) -> dict[str, Any]:
    """``args`` less the ones ``props`` (a kind body's props, or ``None``) shows itself."""
    return {name: value for name, value in args.items() if not _shown(value, props)}


def _shown(value: object, props: object) -> bool:
    match props:
        case ShellProps(command=command):
            return value == command
        case FileProps(path=path, content=content):
            return value in (path, content) and isinstance(value, str)
        case DiffProps(diff=diff, path=path):
            return isinstance(value, str) and (value == path or _in_diff(value, diff))
    return False


def _in_diff(text: str, diff: str) -> bool:
    """Every line of ``text`` is a line the diff draws (after its ``+``, ``-`` or `` ``)."""
    if not text.strip() or len(diff) > _DIFF_CHARS:
        return False
    drawn = {line[1:] for line in diff.splitlines() if line[:1] in ("+", "-", " ")}
    return all(line in drawn for line in text.splitlines())
