"""A unified diff read line by line: what each line is, its old and new numbers, changed words.

Both the terminal and the html surface draw a diff from these lines, so they
number and mark it alike. The numbers come from the hunk headers
(``@@ -12,7 +12,8 @@``): a removed line has an old number, an added line a
new one, a context line both; a header line neither. Inside a hunk, a run of
removed lines followed by a run of added lines is a change: its lines are
paired in order, and each pair's words are compared (``difflib``, the
standard library's matcher) so the words that changed can be marked. A pair
too long or too different to read as one edited line is left unmarked.

The text is the shown window (already cut and cleaned): the work is bounded by
what is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Final, Literal

__all__ = ["DiffLine", "Part", "diff_lines"]

LineKind = Literal["add", "del", "context", "hunk", "file", "note"]
Part = tuple[bool, str]  # (changed, text)

_HUNK: Final = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_WORDS: Final = re.compile(r"\w+|\s+|[^\w\s]")
_PAIR_CHARS: Final = 400  # longer lines are not compared word by word
_SIMILAR: Final = 0.4  # below this, the pair is a rewrite: no word is marked


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line: its kind, its numbers (None where it has none), its text (with its ``+``/``-``)
    and, for an edited line, its text as parts marked changed or not (after the prefix)."""

    kind: LineKind
    text: str
    old: int | None = None
    new: int | None = None
    parts: tuple[Part, ...] = field(default=())


def diff_lines(text: str) -> list[DiffLine]:
    """The lines of unified diff ``text``, numbered from its hunk headers, edits marked.

    A hunk lasts as long as its header's counts say, so a ``--- a/next``
    after it is the next file's header, not a removed line.
    """
    lines: list[DiffLine] = []
    old = new = old_left = new_left = 0
    for raw in text.removesuffix("\n").split("\n"):
        found = _HUNK.match(raw)
        in_hunk = old_left > 0 or new_left > 0
        if found:
            old, new = int(found[1]), int(found[3])
            old_left, new_left = _count(found[2]), _count(found[4])
            lines.append(DiffLine("hunk", raw))
        elif in_hunk and raw.startswith("+"):
            lines.append(DiffLine("add", raw, new=new))
            new, new_left = new + 1, new_left - 1
        elif in_hunk and raw.startswith("-"):
            lines.append(DiffLine("del", raw, old=old))
            old, old_left = old + 1, old_left - 1
        elif in_hunk and (raw.startswith(" ") or raw == ""):
            lines.append(DiffLine("context", raw, old=old, new=new))
            old, new, old_left, new_left = old + 1, new + 1, old_left - 1, new_left - 1
        else:
            lines.append(DiffLine("note" if raw.startswith("\\") else "file", raw))
    return _marked(lines)


def _count(text: str | None) -> int:
    """A hunk header's line count: 1 when left out (``@@ -3 +3 @@``)."""
    return 1 if text is None else int(text)


def _marked(lines: list[DiffLine]) -> list[DiffLine]:
    """``lines`` with each change's removed/added pairs marked word by word."""
    out = list(lines)
    index = 0
    while index < len(out):
        dels = _run(out, index, "del")
        adds = _run(out, index + dels, "add")
        if dels and adds:
            for offset in range(min(dels, adds)):
                _pair(out, index + offset, index + dels + offset)
        index += max(1, dels + adds)
    return out


def _run(lines: list[DiffLine], start: int, kind: str) -> int:
    end = start
    while end < len(lines) and lines[end].kind == kind:
        end += 1
    return end - start


def _pair(lines: list[DiffLine], removed: int, added: int) -> None:
    """Mark the words that differ between ``lines[removed]`` and ``lines[added]``."""
    before, after = lines[removed].text[1:], lines[added].text[1:]
    if len(before) > _PAIR_CHARS or len(after) > _PAIR_CHARS or before == after:
        return
    a, b = _WORDS.findall(before), _WORDS.findall(after)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < _SIMILAR:
        return
    old_parts: list[Part] = []
    new_parts: list[Part] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        changed = tag != "equal"
        _extend(old_parts, changed, "".join(a[a0:a1]))
        _extend(new_parts, changed, "".join(b[b0:b1]))
    lines[removed] = _with_parts(lines[removed], old_parts)
    lines[added] = _with_parts(lines[added], new_parts)


def _extend(parts: list[Part], changed: bool, text: str) -> None:
    if not text:
        return
    if parts and parts[-1][0] == changed:
        parts[-1] = (changed, parts[-1][1] + text)
    else:
        parts.append((changed, text))


def _with_parts(line: DiffLine, parts: list[Part]) -> DiffLine:
    return DiffLine(line.kind, line.text, line.old, line.new, tuple(parts))
