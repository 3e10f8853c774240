"""Private-key blocks: whole, or cut by a window that dropped one of the fences.

A head/tail window can drop a key's ``BEGIN`` line and keep the body and the
``END`` line (or the reverse). The body is the secret: the tail of an RSA key
holds enough to recover it. So three shapes are hidden: a whole block; a block
with no ``BEGIN`` (key lines walked back from ``END`` to the first line that is
not key material -- the window's omission marker, or the start of the text);
and a block with no ``END``, cut where the key material stops rather than
hiding everything that follows. Lines may be real or ``\\n``-escaped (a key in
a JSON string) and may carry a diff or quote marker.
"""

from __future__ import annotations

import re

from toolview.safety.patterns import SecretPattern, Span, mark

__all__ = ["PEM_PATTERN", "ends_inside_a_key", "hide_private_keys", "key_lines_end", "pem_spans"]

_LABEL = r"[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_NL = r"(?:\r?\n|(?:\\r)?\\n)"  # a line break, or one escaped in a JSON string
_MARKER = r"[-+>|#*\"']"  # a diff or quote marker; only "+" is also base64
# A line break with the next line's indentation and one diff/quote marker, or spaces.
_SEP = rf"(?:[ \t]*+{_NL}[ \t]*+(?:{_MARKER}[ \t]*+)?|[ \t]++)"
_HEADER = r"(?:Proc-Type|DEK-Info|Version|Comment|Hash):[^\r\n\\]*+"
_B64 = r"[A-Za-z0-9+/=]++"
_BLOCK = re.compile(
    rf"-----BEGIN{_LABEL}(?P<body>(?:{_SEP}(?:{_HEADER}|{_B64}|(?={_NL})))*+)"
    rf"(?:{_SEP}?(?P<end>-----END{_LABEL}))?"
)
_ITEM = re.compile(
    rf"(?:[ \t]*+{_NL}(?P<indent>[ \t]*+)(?:(?P<marker>{_MARKER})[ \t]*+)?|[ \t]++)"
    rf"(?:(?P<header>{_HEADER})|(?P<b64>{_B64}))?"
)
_FENCE = re.compile(rf"-----(?:BEGIN|END){_LABEL}")
_LINE_END = re.compile(r"[ \t]*+(?:[\r\n\"']|\\[rn]|\Z)")
_KEY_LINE = re.compile(rf"[ \t]*(?:{_MARKER}[ \t]*)?(?:{_B64}|{_HEADER})?[ \t\r]*")
_SHORTEST = 15  # a first body line is full width (64, 70, 76): "The" is prose
_LONGEST_LINE = 1024  # a PEM body line is 64 characters, OpenSSH's 70


def _key_material_end(hay: str, body: tuple[int, int], diff: str | None) -> int:
    """Where the key material of a block without ``END`` stops, in ``body``.

    Headers come first; then base64 lines all as wide as the first, and at
    most one shorter last line. A wider line, a second short one or anything
    else is ordinary output again; so is a short line (first or last) that
    does not end its line (``npm WARN ...``, ``The key was...``); a short
    first line that does is a key cut inside its first line. ``diff`` is the
    indentation of the fence's ``+`` when the block is a diff's added lines.
    """
    end, width = body[0], 0
    for item in _ITEM.finditer(hay, *body):
        header, size = item.group("header"), _width(item, diff)
        if header is not None and width == 0:
            end = item.end()
        elif size > _SHORTEST and width in (0, size):
            end, width = item.end(), size
        elif size and (size < width or width == 0):
            if _LINE_END.match(hay, item.end()):
                end = item.end()
            break
        elif header is not None or size:
            break
    return end


def _width(item: re.Match[str], diff: str | None) -> int:
    """The width of the base64 line ``item`` holds (0: none).

    A leading ``+`` is base64 (one line in 64 starts with it), not a diff
    marker, unless the fence's line was a diff's added line with the same
    indentation: read as a marker, it made a full line one short, so the key
    "ended" there and the lines after it were shown.
    """
    line = item.group("b64")
    if line is None:
        return 0
    plus = item.group("marker") == "+" and item.end("marker") == item.start("b64")
    return len(line) + 1 if plus and item.group("indent") != diff else len(line)


def _diff_indent(hay: str, fence: int) -> str | None:
    """The indentation before a ``+`` that opens the fence's line (a diff's
    added line), or ``None`` when the fence's line is not one."""
    if fence == 0 or hay[fence - 1] != "+":
        return None
    start = fence - 1
    low = max(0, start - 64)
    while start > low and hay[start - 1] in " \t":
        start -= 1
    if start == 0 or hay[start - 1] == "\n" or hay[start - 2 : start] == "\\n":
        return hay[start : fence - 1]
    return None


def _previous_line(hay: str, pos: int, floor: int) -> tuple[int, int] | None:
    """``(start of the line break, start of the line)`` for the line ending at
    ``pos``; ``None`` when the line is longer than any key line."""
    low = max(floor, pos - _LONGEST_LINE)
    real = hay.rfind("\n", low, pos)
    escaped = hay.rfind("\\n", low, pos)
    if real < 0 and escaped < 0:
        return (floor, floor) if low == floor else None
    if real > escaped:
        return (real - 1 if hay[real - 1 : real] == "\r" else real), real + 1
    return (escaped - 2 if hay[escaped - 2 : escaped] == "\\r" else escaped), escaped + 2


def _headless_start(hay: str, end_at: int, floor: int) -> int:
    """Walk back from an ``END`` line over key lines; where the block starts."""
    start, pos, first = end_at, end_at, True
    while pos > floor:
        line = _previous_line(hay, pos, floor)
        if line is None:
            break
        brk, begin = line
        segment = hay[begin:pos]
        if not _KEY_LINE.fullmatch(segment) or (not first and not segment.strip()):
            break
        if segment.strip(" \t\r-+>|#*\"'"):
            start = begin
        pos, first = brk, False
    return start


def pem_spans(hay: str, name: str) -> list[Span]:
    """Every private-key block in ``hay``, whole or cut, as spans named ``name``.

    One scan for fences; ``floor`` is where the last block ended, so a walk
    back never covers text twice (linear however many fences there are).
    """
    spans: list[Span] = []
    floor = 0
    for fence in _FENCE.finditer(hay):
        if fence.start() < floor:
            continue  # the END of a block already hidden
        if hay.startswith("-----BEGIN", fence.start()):
            block = _BLOCK.match(hay, fence.start())
            assert block is not None  # the fence alone is a block
            if block.group("end") is not None:
                stop = block.end()
            else:
                stop = _key_material_end(hay, block.span("body"), _diff_indent(hay, fence.start()))
            spans.append((fence.start(), stop, name))
            floor = stop
        else:
            start = _headless_start(hay, fence.start(), floor)
            if start < fence.start():
                spans.append((start, fence.end(), name))
            floor = fence.end()
    return spans


# A key line of a stream (a blank one parts headers and body); the last one
# may end the stream with no line break.
_BODY_LINE = rf"[ \t]*+(?:{_MARKER}[ \t]*+)?(?:{_B64}|{_HEADER})?[ \t\r]*+(?:\n|\Z)"
_CONTINUATION = re.compile(
    rf"(?:{_BODY_LINE})*?[ \t]*+{_MARKER}?(?P<end>-----END{_LABEL})[^\n]*+\n?|(?:{_BODY_LINE})*+"
)


def hide_private_keys(text: str) -> str:
    """``text`` with only its private-key blocks (whole or cut) hidden.

    One fence search: cheap enough for every byte of a command's output,
    where a full ``redact`` is kept for what is shown.
    """
    if "-----" not in text:
        return text
    parts: list[str] = []
    position = 0
    for start, end, name in pem_spans(text, "private-key"):
        if start >= position:
            parts += [text[position:start], mark(name)]
            position = end
    return "".join([*parts, text[position:]])


def ends_inside_a_key(text: str) -> bool:
    """Does ``text`` end inside a private-key block whose ``END`` has not come?

    For a consumer that redacts a stream one batch of whole lines at a time:
    the next batch may go on with the key's body.
    """
    begin = text.rfind("-----BEGIN")
    match = _BLOCK.match(text, begin) if begin >= 0 else None
    if match is None or match.group("end") is not None:
        return False
    end = _key_material_end(text, match.span("body"), _diff_indent(text, begin))
    return not text[end:].strip(" \t\r\n+>|#*\"'-")  # a diff's blank "+" line may follow


def key_lines_end(text: str) -> tuple[int, bool]:
    """How far ``text`` (the lines after an unfinished block) is key material,
    and whether that includes the block's ``END`` line."""
    match = _CONTINUATION.match(text)
    assert match is not None  # the second alternative matches the empty string
    return match.end(), match.group("end") is not None


PEM_PATTERN = SecretPattern("private-key", _FENCE, scan=pem_spans)
"""``regex`` is the fences: every block, whole or cut, has one."""
