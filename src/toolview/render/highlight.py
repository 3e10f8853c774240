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

A file name is matched against Pygments' own lexers only, as Pygments rates
them (priority, an exact name over a glob, then the class name): Pygments'
``get_lexer_for_filename`` also loads every installed plugin lexer for every
new name — it reads every installed package's entry points (~4 ms a name)
and imports the plugins' packages (IPython registers three lexers, none for a
file name: 0.5–0.8 s in the first call). A package installed beside toolview
does not change how it draws a file.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from functools import lru_cache

from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import (  # type: ignore[import-untyped]
    DiffLexer,
    TextLexer,
    find_lexer_class,
    get_all_lexers,
    get_lexer_by_name,
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
    exact, suffixes, globs = _filename_patterns()
    found = exact.get(name, [])
    for start in range(len(name) + 1):  # ``*.py`` matches what ends with ``.py``, as fnmatch says
        found = found + suffixes.get(name[start:], [])
    found = found + [(lexer, p) for lexer, p in globs if fnmatchcase(name, p)]
    if not found:
        return _TEXT
    best, _ = max(((find_lexer_class(lexer), p) for lexer, p in found), key=_rating)
    return best(**_OPTIONS)


def _rating(match: tuple[type[Lexer], str]) -> tuple[float, str]:
    """Pygments' own order: priority, half a point for a pattern without ``*``, class name."""
    cls, pattern = match
    return cls.priority + (0.5 if "*" not in pattern else 0), cls.__name__


_Named = list[tuple[str, str]]  # (lexer name, file name pattern)


@lru_cache(maxsize=1)
def _filename_patterns() -> tuple[dict[str, _Named], dict[str, _Named], _Named]:
    """The file name patterns of every lexer Pygments ships (not its plugins'): literal names,
    ``*`` + a literal suffix (by suffix: no glob to compile or try), and the other globs."""
    exact: dict[str, _Named] = {}
    suffixes: dict[str, _Named] = {}
    globs: _Named = []
    for lexer, _, patterns, _ in get_all_lexers(plugins=False):
        for pattern in patterns:
            if not any(char in pattern for char in "*?["):
                exact.setdefault(pattern, []).append((lexer, pattern))
            elif pattern.startswith("*") and not any(char in pattern[1:] for char in "*?["):
                suffixes.setdefault(pattern[1:], []).append((lexer, pattern))
            else:
                globs.append((lexer, pattern))
    return exact, suffixes, globs
