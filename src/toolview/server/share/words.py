"""The user's own words hidden from a share: ``--redact REGEX`` and ``--strip-home``.

Why the search's rules: a ``--redact`` pattern is a regex the user typed and
it runs over every string of a session, so it gets the same guard as a
search box's (``server.page.search.rules``: a catastrophic pattern is refused
before it compiles) and the ``regex`` module's time budget while it runs.
A pattern that runs out of time refuses the whole share (``ShareError``):
a text it did not finish may still hold the words the user meant to hide,
and a page that looks redacted but is not is worse than none.

Each hidden word is noted like a secret (``safety.noted``), so the one
review lists both.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from typing import Final

import regex

from toolview.safety.noted import note
from toolview.safety.patterns import mark
from toolview.server.page.search.rules import refusal

__all__ = ["BUDGET_S", "HOME_MARK", "ShareError", "UserWords", "home_label", "pattern_label"]

BUDGET_S: Final = 10.0  # seconds of matching every --redact pattern may take over a whole share
HOME_MARK: Final = "~"


class ShareError(ValueError):
    """A share that cannot be made as asked; the message says why (nothing is written)."""


def pattern_label(number: int) -> str:
    """The name a ``--redact`` pattern's marks and review lines carry: ``your pattern 1``."""
    return f"your pattern {number}"


def home_label() -> str:
    """The review's name for the home folder replaced by ``~``."""
    return "home path (~)"


class UserWords:
    """Hides what ``--redact`` patterns match and, with ``strip_home``, the home path."""

    def __init__(
        self,
        patterns: Sequence[str] = (),
        *,
        strip_home: bool = False,
        home: str | None = None,
        budget: float = BUDGET_S,
    ) -> None:
        self.sources = list(patterns)
        self._compiled = [_compile(number, source) for number, source in enumerate(patterns, 1)]
        place = home if home is not None else os.path.expanduser("~")
        self._home = _home_pattern(place) if strip_home else None
        self._left = self.budget = budget

    def __bool__(self) -> bool:
        return bool(self._compiled) or self._home is not None

    def hide(self, text: str) -> str:
        """``text`` with the home path as ``~`` and every pattern's match as a mark."""
        if self._home is not None:
            text, count = self._home.subn(HOME_MARK, text)
            for _ in range(count):
                note(home_label())
        for number, pattern in enumerate(self._compiled, 1):
            text = self._sub(number, pattern, text)
        return text

    def _sub(self, number: int, pattern: regex.Pattern[str], text: str) -> str:
        label = pattern_label(number)
        hidden = mark(label)

        def replace(found: regex.Match[str]) -> str:
            if not found.group():
                return ""  # an empty match hides nothing
            note(label)
            return hidden

        started = time.monotonic()
        try:
            return pattern.sub(replace, text, timeout=max(self._left, 0.001))
        except TimeoutError:
            raise ShareError(
                f"--redact {self.sources[number - 1]!r} took more than {self.budget:g} s over this "
                "session: refused (nothing was written); make it simpler"
            ) from None
        finally:
            self._left -= time.monotonic() - started


def _compile(number: int, source: str) -> regex.Pattern[str]:
    """The pattern, refused as the search refuses one (and never empty-matching only)."""
    why = refusal(source)
    if why is not None:
        raise ShareError(f"--redact {source!r} (pattern {number}) refused: {why}")
    try:
        compiled = regex.compile(source, regex.V0, cache_pattern=False)
    except (regex.error, OverflowError, RecursionError, MemoryError) as exc:
        raise ShareError(f"--redact {source!r}: not a valid regular expression: {exc}") from None
    if compiled.fullmatch(""):
        raise ShareError(f"--redact {source!r} matches nothing at all (the empty text)")
    return compiled


def _home_pattern(home: str) -> re.Pattern[str] | None:
    """The home folder as a path's start, not a longer name's (``/home/al`` ≠ ``/home/alice``)."""
    home = home.rstrip("/\\")
    if len(home) < 2:
        return None  # "/" as home: every absolute path would lose its root
    return re.compile(re.escape(home) + r"(?![\w.-])")
