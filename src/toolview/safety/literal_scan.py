"""Every occurrence of many literals in one pass over a text.

The prefilter's scanner: where in a text do the literal starts of the secret
patterns occur (all of them, overlapping ones too)? With Hyperscan (a
multi-literal automaton in C: one pass whatever the number of literals,
~0.6 µs for a short string) when it is installed, else one ``str.find`` loop
per literal -- the same answer, slower: the stdlib fallback for platforms
Hyperscan has no wheel for, and the tests' reference for the fast finder.

A literal is matched either as written (in the text) or lowercase (in the
text as the lowercase patterns see it). ASCII text is scanned as bytes, its
lowercase literals caseless: the same as searching the lowered text, without
lowering it. Other text is scanned as UTF-32 code units (positions are
character positions either way), caseless too -- unless it holds one of the
two non-ASCII characters whose lowercase is ASCII (U+0130 and the Kelvin
sign U+212A): then its lowered text is scanned for the lowercase literals.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["Found", "Literal", "LiteralSet"]

Literal = tuple[str, bool]
"""``(text, lowercase)``: a lowercase literal is looked for in the lowered text."""

Found = dict[int, list[int]]
"""Literal id (its index) -> every start position, ascending."""

_KINDS = ("ascii", "all32", "cased32", "lower32")


class LiteralSet:
    """A fixed list of literals (ids are their indexes) and their compiled databases."""

    def __init__(self, literals: tuple[Literal, ...]) -> None:
        self.literals = literals
        self._databases: dict[str, Any] | None = None
        self._local = threading.local()  # one Hyperscan scratch per thread and database
        self._lock = threading.Lock()

    def find(self, text: str, lowered: Callable[[], str]) -> Found:
        """Every occurrence of every literal in ``text`` (``lowered()`` for lowercase ones)."""
        databases = self._databases
        if databases is None:
            if _hyperscan() is None:
                return self.find_stdlib(text, lowered)
            databases = self._compile()
        found: Found = {}
        if text.isascii():
            self._scan(databases["ascii"], text.encode("ascii"), 1, found)
        elif "\u0130" in text or "\u212a" in text:
            self._scan(databases["cased32"], _utf32(text), 4, found)
            self._scan(databases["lower32"], _utf32(lowered()), 4, found)
        else:
            self._scan(databases["all32"], _utf32(text), 4, found)
        return found

    def _compile(self) -> dict[str, Any]:
        """The databases, compiled once (under a lock: a scratch is made for one)."""
        with self._lock:
            if self._databases is None:
                hs = _hyperscan()
                self._databases = {kind: _database(hs, self.literals, kind) for kind in _KINDS}
            return self._databases

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

    def _scan(self, database: Any, data: bytes, unit: int, found: Found) -> None:
        """Add the start of every match of one database in ``data`` to ``found``."""
        if database is None or not data:
            return
        try:
            scratch = self._local.scratches[id(database)]
        except (AttributeError, KeyError):
            scratch = self._scratch(database)
        ends: list[tuple[int, int]] = []
        database.scan(data, match_event_handler=_collect, context=ends, scratch=scratch)
        literals = self.literals
        for index, end in ends:
            if end % unit == 0:  # a UTF-32 match not on a code unit is no match
                found.setdefault(index, []).append(end // unit - len(literals[index][0]))

    def _scratch(self, database: Any) -> Any:
        """This thread's scratch space for a database: Hyperscan scans without
        the GIL, and two scans must never share one."""
        if not hasattr(self._local, "scratches"):
            self._local.scratches = {}
        scratch = self._local.scratches[id(database)] = _hyperscan().Scratch(database)
        return scratch


def _collect(index: int, _start: int, end: int, _flags: int, ends: list[tuple[int, int]]) -> None:
    ends.append((index, end))


def _utf32(text: str) -> bytes:
    return text.encode("utf-32-le", "surrogatepass")


@cache
def _hyperscan() -> Any:
    """The Hyperscan module, imported on first use (it costs ~16 ms to load)."""
    try:
        return importlib.import_module("hyperscan")
    except ImportError:
        return None


def _database(hs: Any, literals: tuple[Literal, ...], kind: str) -> Any:
    """A block-mode database of the literals: ``ascii`` and ``all32`` (all,
    lowercase ones caseless), ``cased32``/``lower32`` (one side each); the
    ``32`` ones as UTF-32 code units."""
    ids, expressions, flags = [], [], []
    for index, (literal, lowercase) in enumerate(literals):
        if kind == "ascii" and not literal.isascii():
            continue  # never in ASCII text
        if kind in ("cased32", "lower32") and lowercase != (kind == "lower32"):
            continue
        encoded = literal.encode("ascii") if kind == "ascii" else _utf32(literal)
        ids.append(index)
        expressions.append(b"".join(b"\\x%02x" % byte for byte in encoded))
        flags.append(hs.HS_FLAG_CASELESS if kind in ("ascii", "all32") and lowercase else 0)
    if not ids:
        return None
    database = hs.Database()
    database.compile(expressions=expressions, ids=ids, elements=len(ids), flags=flags)
    return database
