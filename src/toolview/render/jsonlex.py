"""Pygments' ``JsonLexer`` tokens from one regex match per token, not a Python step per character.

Every call's arguments line is JSON, and so is every ``json`` body: Pygments'
JSON lexer walks the text one character at a time in Python (a flag per
state), which on the 5,000-call session was most of the arguments' cost in
HTML. Its state machine has one token per starting character, so each token
is one match of an ordered alternation here; the rest is its queue: a quoted
string is a ``String.Double`` unless a ``:`` follows it (across whitespace and
comments), which makes it a key (``Name.Tag``), and any other token settles
the strings before it as they are. ``tests/render/test_jsonlex.py`` holds the
two equal on any text; ``regexlex.tokens`` uses this for the JSON lexer.
"""

from __future__ import annotations

import re
from typing import Final

from pygments.lexers.data import JsonLexer  # type: ignore[import-untyped]
from pygments.token import (  # type: ignore[import-untyped]
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Punctuation,
    String,
    Whitespace,
    _TokenType,
)

__all__ = ["JsonLexer", "json_tokens"]

_HEX: Final = "[0-9a-fA-F]"
# One branch per starting character, in the lexer's own order; an escape ``\u`` takes up to
# four hex digits and, when fewer come, the character that ended them (the lexer's quirk).
_TOKEN: Final = re.compile(
    rf'(?P<s>"(?:[^"\\]|\\u(?:{_HEX}{{4}}|{_HEX}{{0,3}}[^0-9a-fA-F])|\\[^u])*+")'
    r"|(?P<w>[ \n\r\t]+)"
    r"|(?P<k>[ftn][truefalsn]*)"
    r"|(?P<n>[-0-9][-0-9.eE+]*)"
    r"|(?P<c>:[{}\[\],]*)"
    r"|(?P<p>[{}\[\],]+)"
    r"|(?P<cs>//[^\n]*)"
    r"|(?P<cm>/\*[\s\S]*?\*/)"
)
_FLOAT: Final = re.compile(r"[.eE+]")
_KINDS: Final[dict[str | None, _TokenType]] = {
    "w": Whitespace,
    "k": Keyword.Constant,
    "c": Punctuation,
    "p": Punctuation,
    "cs": Comment.Single,
    "cm": Comment.Multiline,
}
_QUEUED: Final = frozenset(["s", "w", "cs", "cm"])  # what waits for a ``:`` (or not)


def json_tokens(text: str) -> list[tuple[_TokenType, str]]:
    """``JsonLexer().get_tokens_unprocessed(text)``'s (token, value) pairs, in order.

    ``text`` is already preprocessed (newlines, the final one) as the lexer's
    ``get_tokens`` does it.
    """
    out: list[tuple[_TokenType, str]] = []
    strings: list[int] = []  # positions in ``out`` of the strings not yet settled
    pos, size = 0, len(text)
    while pos < size:
        m = _TOKEN.match(text, pos)
        kind = m.lastgroup if m is not None else None
        if kind not in _QUEUED:
            if kind == "c":  # the strings waiting are keys
                for index in strings:
                    out[index] = (Name.Tag, out[index][1])
            strings.clear()
        if m is None:  # a lone ``/``, an unclosed string or comment, any other character
            end = size if text[pos] == '"' or text.startswith("/*", pos) else pos + 1
            out.append((Error, text[pos:end]))
            pos = end
            continue
        value = m.group()
        if kind == "s":
            strings.append(len(out))
            out.append((String.Double, value))
        elif kind == "n":
            out.append((Number.Float if _FLOAT.search(value) else Number.Integer, value))
        else:
            out.append((_KINDS[kind], value))
        pos = m.end()
    return out
