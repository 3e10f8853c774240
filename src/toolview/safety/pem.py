"""Private-key blocks: whole, or cut by a window that dropped one of the fences.

A head/tail window can drop a key's ``BEGIN`` line and keep the body and the
``END`` line (or the reverse). The body is the secret: the tail of an RSA key
holds enough to recover it. So three shapes are hidden: a whole block; a block
with no ``BEGIN`` (key lines walked back from ``END`` to the first line that is
not key material -- the window's omission marker, or the start of the text);
and a block with no ``END``, cut where the key material stops rather than
hiding everything that follows. Lines may be real or ``\\n``-escaped (a key in
a JSON string) and may carry a diff or quote marker (``pem_lines``: the
lines, and where a block with no ``END`` stops).
"""

from __future__ import annotations

from toolview.safety.patterns import LazyRegex, SecretPattern, Span, mark
from toolview.safety.pem_lines import B64, HEADER, MARKER, NL, SEP, material_end

__all__ = ["PEM_PATTERN", "ends_inside_a_key", "hide_private_keys", "key_lines_end", "pem_spans"]

_LABEL = r"[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_BLOCK = LazyRegex(
    rf"-----BEGIN{_LABEL}(?P<body>(?:{SEP}(?:{HEADER}|{B64}|(?={NL})))*+)"
    rf"(?:{SEP}?(?P<end>-----END{_LABEL}))?"
)
_FENCE = LazyRegex(rf"-----(?:BEGIN|END){_LABEL}")
_KEY_LINE = LazyRegex(rf"[ \t]*(?:{MARKER}[ \t]*)?(?:{B64}|{HEADER})?[ \t\r]*")
_LONGEST_LINE = 1024  # a PEM body line is 64 characters, OpenSSH's 70


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
                stop = material_end(hay, block.span("body"), fence.start())
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
_BODY_LINE = rf"[ \t]*+(?:{MARKER}[ \t]*+)?(?:{B64}|{HEADER})?[ \t\r]*+(?:\n|\Z)"
_CONTINUATION = LazyRegex(
    rf"(?:{_BODY_LINE})*?[ \t]*+{MARKER}?(?P<end>-----END{_LABEL})[^\n]*+\n?|(?:{_BODY_LINE})*+"
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
    end = material_end(text, match.span("body"), begin)
    return not text[end:].strip(" \t\r\n+>|#*\"'-")  # a diff's blank "+" line may follow


def key_lines_end(text: str) -> tuple[int, bool]:
    """How far ``text`` (the lines after an unfinished block) is key material,
    and whether that includes the block's ``END`` line."""
    match = _CONTINUATION.match(text)
    assert match is not None  # the second alternative matches the empty string
    return match.end(), match.group("end") is not None


PEM_PATTERN = SecretPattern("private-key", _FENCE, scan=pem_spans)
"""``regex`` is the fences: every block, whole or cut, has one."""
