"""Run only the secret patterns that can match, only where they can start.

One pass (``literal_scan``) finds every occurrence of every pattern's literal
starts (read from its regex by ``anchors``) and of its gate ``literals``.
Then each pattern runs where it can:

- a pattern with starts is matched (``regex.match``) at its starts only, in
  order, each start inside the last match skipped: exactly what
  ``regex.finditer`` over the whole text finds, since a match can only begin
  where a start occurs -- without running the regex anywhere else;
- a pattern whose gate literals are all absent does not run at all (its
  ``SecretPattern.spans`` would return nothing); where one occurs, its starts
  are looked for then (``curl``'s ``-u``: not a scanner hit per ``-u`` in
  every text);
- a whole-text scanner runs when its literals (else its fences) occur;
- a pattern with no usable start (the Discord bot token starts with ".")
  runs over the whole text, as before.

Nothing here decides what a secret is: the same regexes and ``locate``
checks as the unfiltered path give the same spans (tests/safety pin it).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from itertools import accumulate
from typing import NamedTuple

from toolview.safety.anchors import literal_starts
from toolview.safety.literal_scan import Found, Literal, LiteralSet, scannable
from toolview.safety.pattern_runs import Route, anchored, occurrences, positions, whole
from toolview.safety.patterns import SecretPattern, lower_text

__all__ = ["Cost", "Prefilter", "RankedSpan"]

RankedSpan = tuple[int, int, int, str]
"""``(start, end, rank, name)``: a span and its pattern's priority."""

_SHORTEST_START = 2  # a one-character start ("." of a Discord token) is everywhere


class Cost(NamedTuple):
    """What redacting one text costs, counted (not timed)."""

    scans: int  # passes of a matching engine over the whole text
    copies: int  # whole-text copies: encoding for the scanner, lowering
    attempts: int  # regex matches tried at a start (each reads on from there only)


class Prefilter:
    """The routes of a pattern list (in priority order) and the literals they watch."""

    def __init__(self, patterns: Iterable[SecretPattern]) -> None:
        self.literals: tuple[Literal, ...] = ()
        ids: dict[Literal, int] = {}

        def id_of(text: str, lowercase: bool) -> int:
            key = (text, lowercase)
            if key not in ids:
                ids[key] = len(ids)
                self.literals = (*self.literals, key)
            return ids[key]

        self.always: list[Route] = []  # run on every text: no literal tells
        self.watchers: dict[int, list[Route]] = {}
        for rank, pattern in enumerate(patterns):
            starts = literal_starts(pattern.regex) or ()
            if pattern.scan is not None and pattern.literals:
                starts = ()  # its literals alone decide (it may find spans its regex does not)
            shorts: tuple[str, ...] = ()
            if any(len(start) < _SHORTEST_START for start in starts):
                starts, shorts = (), starts
            late: tuple[str, ...] = ()
            if pattern.literals and pattern.scan is None and starts:
                starts, late = (), starts  # looked for only where a gate occurs (rarely)
            if not all(map(scannable, (*starts, *late, *pattern.literals))):
                # a literal the byte scan cannot see: the pattern checks its own
                self.always.append(Route(rank, pattern, (), (), direct=True))
                continue
            low = pattern.lowercase
            route = Route(
                rank,
                pattern,
                tuple(id_of(s, low) for s in starts),
                tuple(id_of(s, low) for s in pattern.literals),
                shorts,
                late=late,
            )
            if not route.starts and not route.gates:
                self.always.append(route)
            for literal in route.starts or route.gates:
                self.watchers.setdefault(literal, []).append(route)

        self.finder = LiteralSet(self.literals)
        self._plain: list[tuple[Route, str]] | None = None
        self._plain = self.plan({})  # the plan of a text with no literal: most texts
        # What a text with no literal must hold for anything to run on it: the
        # short starts of the patterns no literal tells (None: those run anyway).
        needed = [re.escape(short) for route in self.always for short in route.shorts]
        self._shorts = re.compile("|".join(needed)) if needed else None
        if any(
            not route.shorts or route.pattern.lowercase or route.direct for route in self.always
        ):
            self._shorts = None

    def spans(
        self, text: str, lowered: Callable[[], str], found: Found | None = None
    ) -> list[RankedSpan]:
        """Every span of every pattern in ``text``, ranked, unmerged.

        ``found``: where the literals are, if already known (``find_each``, or
        the tests' stdlib finder); else the literal scanner looks.
        """
        if found is None:
            found = self.finder.find(text, lowered)
        spans: list[RankedSpan] = []
        for route, mode in self.plan(found):
            pattern = route.pattern
            hay = lowered() if pattern.lowercase else text
            if mode == "direct":
                found_spans = pattern.spans(hay)
            elif mode == "scan":
                assert pattern.scan is not None
                found_spans = pattern.scan(hay, pattern.name)
            elif mode == "anchored":
                found_spans = anchored(pattern, hay, positions(route.starts, found))
            elif mode == "late":
                found_spans = anchored(pattern, hay, occurrences(hay, route.late))
            elif route.shorts and not any(short in hay for short in route.shorts):
                continue  # its regex starts with one of these characters: none here
            else:
                found_spans = whole(pattern, hay)
            spans.extend((start, end, route.rank, name) for start, end, name in found_spans)
        return spans

    def plain(self, text: str) -> bool:
        """Can nothing run on ``text``, given that no literal occurs in it?"""
        return self._shorts is not None and self._shorts.search(text) is None

    def find_each(self, texts: list[str], joined: str | None = None) -> dict[int, Found]:
        """Where the literals are in each of ``texts`` (by index; a text with
        none is left out), from one scan of them joined (``joined``, if the
        caller has it: ``"\\x00".join(texts)``)."""
        if joined is None:
            joined = "\x00".join(texts)
        lowered: list[str] = []

        def lower() -> str:
            if not lowered:
                lowered.append(lower_text(joined))
            return lowered[0]

        found = self.finder.find(joined, lower)
        if not found:
            return {}
        offsets = list(accumulate((len(text) + 1 for text in texts[:-1]), initial=0))
        each: dict[int, Found] = {}
        for literal, found_at in found.items():
            for position in found_at:
                index = bisect_right(offsets, position) - 1
                each.setdefault(index, {}).setdefault(literal, []).append(position - offsets[index])
        return each

    def plan(self, found: Found) -> list[tuple[Route, str]]:
        """Which patterns run, given where the literals are, and how: ``scan``
        (a whole-text scanner), ``whole`` (the regex over the whole text),
        ``anchored`` (the regex at its starts only), ``late`` (the same, its
        starts looked for once its gate is found) or ``direct`` (a pattern
        with a literal the byte scan cannot see: ``SecretPattern.spans``)."""
        if not found and self._plain is not None:
            return self._plain
        routes = self.always
        if found:
            touched = {route.rank: route for route in routes}
            for literal in found:
                touched.update((route.rank, route) for route in self.watchers.get(literal, ()))
            routes = list(touched.values())
        planned: list[tuple[Route, str]] = []
        for route in routes:
            if route.direct:
                planned.append((route, "direct"))
                continue
            if route.gates and not any(gate in found for gate in route.gates):
                continue  # SecretPattern.spans would find nothing
            if route.pattern.scan is not None:
                if not route.starts or any(start in found for start in route.starts):
                    planned.append((route, "scan"))
            elif route.starts:
                if any(start in found for start in route.starts):
                    planned.append((route, "anchored"))
            elif route.late:
                planned.append((route, "late"))
            else:
                planned.append((route, "whole"))
        return planned

    def cost(self, text: str, lowered: Callable[[], str]) -> Cost:
        """Counted: how :meth:`spans` reads ``text``, from the same plan it follows.

        The literal scan is one pass (two for a text holding U+0130 or U+212A:
        the text and its lowercase) with Hyperscan, one per literal without; a ``scan`` or
        ``whole`` route is one more pass each; an ``anchored`` route tries its
        regex once per start.
        """
        found = self.finder.find(text, lowered)
        plan = self.plan(found)
        fast = self.finder.fast()
        folded = "\u0130" in text or "\u212a" in text
        scans = (1 + folded) if fast else len(self.literals)
        scans += sum(len(route.late) or 1 for route, mode in plan if mode != "anchored")
        lowers = any(route.pattern.lowercase for route, _ in plan) or (fast and folded)
        copies = (1 + folded) * fast + lowers
        attempts = sum(len(positions(route.starts, found)) for route, m in plan if m == "anchored")
        attempts += sum(
            len(occurrences(lowered() if route.pattern.lowercase else text, route.late))
            for route, m in plan
            if m == "late"
        )
        return Cost(scans, copies, attempts)
