"""pi's edit diff (its own numbered format) as a unified diff.

pi's ``details.diff`` is not a unified diff: each line is a marker (``+``,
``-`` or space), a line number padded to a common width, a space and the text;
context uses the old file's numbers, ``+`` lines the new file's, and a line of
only ``...`` marks skipped context. This rebuilds ``@@`` hunks from those
numbers. Anything that does not parse gives ``None``, and the caller keeps
pi's own text rather than guess.
"""

from __future__ import annotations

import re

__all__ = ["to_unified_diff"]

_LINE = re.compile(r"^(?P<mark>[ +-]) *(?P<number>\d+) (?P<text>.*)$")
_SKIP = re.compile(r"^ +\.\.\.$")


def _hunks(diff: str) -> list[list[tuple[str, int, str]]] | None:
    hunks: list[list[tuple[str, int, str]]] = [[]]
    for line in diff.split("\n"):
        if _SKIP.match(line):
            hunks.append([])
            continue
        match = _LINE.match(line)
        if match is None:
            return None
        hunks[-1].append((match["mark"], int(match["number"]), match["text"]))
    return [hunk for hunk in hunks if hunk]


def _header(hunk: list[tuple[str, int, str]], delta: int) -> str:
    mark, number, _ = hunk[0]
    old_start = number - delta if mark == "+" else number
    new_start = number if mark == "+" else number + delta
    old_count = sum(1 for m, _, _ in hunk if m != "+")
    new_count = sum(1 for m, _, _ in hunk if m != "-")
    return f"@@ -{old_start},{old_count} +{new_start},{new_count} @@"


def to_unified_diff(diff: str, path: str) -> str | None:
    """A unified diff of ``path`` from pi's numbered diff, or ``None``."""
    hunks = _hunks(diff)
    if not hunks:
        return None
    out = [f"--- a/{path}", f"+++ b/{path}"]
    delta = 0  # new line number minus old line number, before the current hunk
    for hunk in hunks:
        out.append(_header(hunk, delta))
        out.extend(f"{mark}{text}" for mark, _, text in hunk)
        delta += sum(1 for m, _, _ in hunk if m == "+") - sum(1 for m, _, _ in hunk if m == "-")
    return "\n".join(out) + "\n"
