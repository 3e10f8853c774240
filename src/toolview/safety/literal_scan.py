"""Every occurrence of many literals in one pass over a text.

The prefilter's scanner: where in a text do the literal starts of the secret
patterns occur (all of them, overlapping ones too)? With Hyperscan (a
multi-literal automaton in C: one pass whatever the number of literals,
~0.6 µs for a short string) when it is installed, else one ``str.find`` loop
per literal -- the same answer, slower: the stdlib fallback for platforms
Hyperscan has no wheel for, and the tests' reference for the fast finder.

A literal is matched either as written (in the text) or lowercase (in the
text as the lowercase patterns see it). The text is scanned as one byte per
character (a non-ASCII one as ``?``: every literal is ASCII), its lowercase
literals caseless: the same as searching the lowered text, without lowering
it -- unless the text holds one of the two non-ASCII characters whose
lowercase is ASCII (U+0130 and the Kelvin sign U+212A): then its lowered
text is scanned for the lowercase literals.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["Found", "Literal", "LiteralSet", "scannable"]

Literal = tuple[str, bool]
"""``(text, lowercase)``: a lowercase literal is looked for in the lowered text."""

_LONGEST = 2**31 - 1  # Hyperscan takes a block's length as a 32-bit count

Found = dict[int, list[int]]
"""Literal id (its index) -> every start position, ascending."""


class LiteralSet:
    """A fixed list of literals (ids are their indexes) and their compiled databases."""

    def __init__(self, literals: tuple[Literal, ...]) -> None:
        if not all(scannable(literal) for literal, _ in literals):
            raise ValueError(
                "a literal that is not ASCII, or holds '?', cannot be scanned as bytes"
            )
        self.literals = literals
        self._databases: dict[str, Any] = {}  # compiled on first use, per kind
        self._local = threading.local()  # one Hyperscan scratch per thread and database
        self._lock = threading.Lock()
        self._lengths = [len(literal) for literal, _ in literals]

    def find(self, text: str, lowered: Callable[[], str]) -> Found:
        """Every occurrence of every literal in ``text`` (``lowered()`` for lowercase ones)."""
        hs = _hyperscan()
        if hs is None or len(text) > _LONGEST:
            return self.find_stdlib(text, lowered)
        found: Found = {}
        try:
            if text.isascii():
                self._scan("all", text.encode("ascii"), found)
            elif "\u0130" in text or "\u212a" in text:
                self._scan("cased", _bytes(text), found)
                self._scan("lower", _bytes(lowered()), found)
            else:
                self._scan("all", _bytes(text), found)
        except hs.error:  # redaction never raises: the slower finder gives the same answer
            return self.find_stdlib(text, lowered)
        return found

    def fast(self) -> bool:
        """Does :meth:`find` run Hyperscan (one pass) rather than ``str.find``?"""
        return _hyperscan() is not None

    def find_stdlib(self, text: str, lowered: Callable[[], str]) -> Found:
        """The same answer by ``str.find``: one pass per literal."""
        found: Found = {}
        for index, (literal, lowercase) in enumerate(self.literals):
            hay = lowered() if lowercase else text
            position = hay.find(literal)
            while position >= 0:
                found.setdefault(index, []).append(position)
                position = hay.find(literal, position + 1)
        return found

    def _scan(self, kind: str, data: bytes, found: Found) -> None:
        """Add the start of every match of one database in ``data`` to ``found``."""
        database = self._databases.get(kind) or self._database(kind)
        if database is None or not data:
            return
        try:
            scratch = self._local.scratches[kind]
        except (AttributeError, KeyError):
            scratch = self._scratch(kind, database)
        ends: list[tuple[int, int]] = []
        database.scan(data, match_event_handler=_collect, context=ends, scratch=scratch)
        lengths = self._lengths
        for index, end in ends:
            found.setdefault(index, []).append(end - lengths[index])

    def _database(self, kind: str) -> Any:
        """Compile one kind's database, once (a thread's scratch is made for one)."""
        with self._lock:
            if kind not in self._databases:
                self._databases[kind] = _database(_hyperscan(), self.literals, kind)
            return self._databases[kind]

    def _scratch(self, kind: str, database: Any) -> Any:
        """This thread's scratch space for a database: Hyperscan scans without
        the GIL, and two scans must never share one."""
        if not hasattr(self._local, "scratches"):
            self._local.scratches = {}
        scratch = self._local.scratches[kind] = _hyperscan().Scratch(database)
        return scratch


def scannable(literal: str) -> bool:
    """Can ``literal`` be found in the one-byte-per-character form of a text?"""
    return literal.isascii() and "?" not in literal and literal != ""


def _collect(index: int, _start: int, end: int, _flags: int, ends: list[tuple[int, int]]) -> None:
    ends.append((index, end))


def _bytes(text: str) -> bytes:
    """One byte per character: ``?`` for any that is not ASCII. No literal
    holds a ``?`` or a non-ASCII character, so the matches are the same, at the
    same positions."""
    return text.encode("ascii", "replace")


@cache
def _hyperscan() -> Any:
    """The Hyperscan module, imported on first use (it costs ~16 ms to load)."""
    try:
        return importlib.import_module("hyperscan")
    except ImportError:
        return None


def _database(hs: Any, literals: tuple[Literal, ...], kind: str) -> Any:
    """A block-mode database of the literals: ``all`` (lowercase ones
    caseless), or one side of them, ``cased`` or ``lower``."""
    ids, expressions, flags = [], [], []
    for index, (literal, lowercase) in enumerate(literals):
        if kind != "all" and lowercase != (kind == "lower"):
            continue
        ids.append(index)
        expressions.append(b"".join(b"\\x%02x" % byte for byte in literal.encode("ascii")))
        flags.append(hs.HS_FLAG_CASELESS if kind == "all" and lowercase else 0)
    if not ids:
        return None
    database = hs.Database()
    database.compile(expressions=expressions, ids=ids, elements=len(ids), flags=flags)
    return database
