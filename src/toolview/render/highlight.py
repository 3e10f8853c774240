"""Pygments lexers for code, looked up once: the one choice both the terminal and html make.

Finding a lexer walks Pygments' table of every lexer (a name's aliases, a file
name's glob patterns), which costs more than highlighting a short file, so a
lookup is cached by its key: the declared language, else the file's base name.
A lexer holds only its options, never state between calls, so one instance
serves every call and thread.

The lexer is chosen from the declared language, else the file name; an
unknown one is plain text — never content sniffing, which would let a tool
steer the lexer and costs a scan of the whole text. Newlines are kept as they
are (``stripnl`` off): a file's leading blank lines keep their numbers.
"""

from __future__ import annotations

from functools import lru_cache

from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import (  # type: ignore[import-untyped]
    DiffLexer,
    TextLexer,
    get_lexer_by_name,
    get_lexer_for_filename,
)
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

__all__ = ["diff_lexer", "lexer_for"]

_OPTIONS = {"stripnl": False, "ensurenl": True}
_TEXT = TextLexer(**_OPTIONS)
_DIFF = DiffLexer(**_OPTIONS)


def lexer_for(language: str | None, path: str | None) -> Lexer:
    """The lexer for a ``language`` name, else for ``path``'s file name, else plain text."""
    if language:
        return _by_name(language[:64].strip().lower())
    if path:
        return _by_filename(path[-200:].replace("\\", "/").rsplit("/", 1)[-1])
    return _TEXT


def diff_lexer() -> Lexer:
    """Pygments' unified-diff lexer: a line's first character decides its token."""
    return _DIFF


@lru_cache(maxsize=256)
def _by_name(name: str) -> Lexer:
    try:
        return get_lexer_by_name(name, **_OPTIONS)
    except ClassNotFound:
        return _TEXT


@lru_cache(maxsize=1024)
def _by_filename(name: str) -> Lexer:
    try:
        return get_lexer_for_filename(name, **_OPTIONS)
    except ClassNotFound:
        return _TEXT
