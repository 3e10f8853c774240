"""Each observation of a share redacted, and the review of what was hidden where.

Why per observation: the review must say WHERE each secret was (which call,
which field) and never the secret. Every string of an observation is
redacted once, as every surface redacts it (``wire.memo.redact_observation``),
inside ``safety.noted.noting``: the names of the marks it made are the
review's lines, with no second scan. The user's own words (``UserWords``)
are hidden after the credentials, in the same pass over each string.

The page drawn from the redacted observations redacts again (every surface
does); that finds nothing more, and is not noted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
)
from toolview.safety import redact, redact_json
from toolview.safety.noted import noting
from toolview.server.share.words import UserWords
from toolview.wire.memo import Redactor, redact_observation

__all__ = ["Finding", "Review", "review_lines"]


@dataclass(frozen=True, order=True)
class Finding:
    """``count`` marks of ``kind`` (a secret pattern's or the user's) in ``where``."""

    where: str
    kind: str
    count: int = 1


class Review:
    """Redacts observations for a share and keeps what it hid, by place and kind."""

    def __init__(self, words: UserWords) -> None:
        self.words = words
        self._counts: Counter[tuple[str, str]] = Counter()
        self._order: dict[tuple[str, str], int] = {}
        self._in_json: list[str] = []  # names hidden in JSON values (arguments, props)
        self._redactor = Redactor(text=self.text, json=self._json, budget=0)

    def text(self, text: str) -> str:
        """A string as the share writes it: credentials, then the user's words, hidden."""
        return self.words.hide(redact(text)) if self.words else redact(text)

    def _json(self, value: object) -> object:
        """A JSON value redacted; its marks noted apart (a result's props repeat its text:
        the review says so rather than count one secret twice in one place)."""
        with noting() as names:
            clean = redact_json(value)
            clean = _strings(clean, self.words.hide) if self.words else clean
        self._in_json += names
        return clean

    def observation(self, observation: Observation) -> Observation:
        """``observation`` redacted; what was hidden in it noted under its place."""
        self._in_json = []
        with noting() as names:
            safe = redact_observation(observation, self._redactor)
        self._count(place(safe), names)
        if isinstance(safe, ToolResult) and self._in_json:
            self._count(place(safe, props=True), self._in_json)
        elif self._in_json:
            self._count(place(safe), self._in_json)
        return safe

    def _count(self, where: str, names: list[str]) -> None:
        for name in names:
            key = (where, name)
            self._order.setdefault(key, len(self._order))
            self._counts[key] += 1

    def note(self, text: str) -> str:
        """A reader's note (a skipped line) as the share writes it; noted as ``a note``."""
        with noting() as names:
            safe = self.text(text)
        for name in names:
            self._counts[("a note on the page", name)] += 1
        return safe

    def findings(self) -> list[Finding]:
        """Every (place, kind) with its count, in the order they were first met."""
        keys = sorted(self._counts, key=lambda key: self._order.get(key, len(self._order)))
        return [Finding(where, kind, self._counts[(where, kind)]) for where, kind in keys]


def place(safe: Observation, *, props: bool = False) -> str:
    """Where in the session ``safe`` (already redacted) is: its call and field, or its kind;
    ``props``: a result's descriptor props (a shell's stdout, a file's content…)."""
    under = safe.parent_call_id
    inside = f" (in the sub-agent of call {under})" if isinstance(under, str) else ""
    match safe:
        case ToolCall():
            return f"call {safe.tool_call_id} {safe.tool_name}: arguments{inside}"
        case ToolResult():
            field = f"output's {_kind(safe)} props" if props else "output"
            return f"call {safe.tool_call_id} {safe.tool_name}: {field}{inside}"
        case ToolRefused():
            return f"call {safe.tool_call_id} {safe.tool_name}: refusal{inside}"
        case Message():
            return f"{safe.role} message{inside}"
        case Usage():
            return f"token usage: model{inside}"
        case RunStarted() | RunEnded():
            return f"run {safe.run_id}{inside}"
    return f"an observation{inside}"


def _kind(result: ToolResult) -> str:
    descriptor = result.descriptor
    return descriptor.kind if isinstance(descriptor, Descriptor) else "structured"


def review_lines(findings: list[Finding]) -> Iterator[str]:
    """The review as lines for a terminal: a head count, then one line per place and kind."""
    total = sum(finding.count for finding in findings)
    if not total:
        yield "review: nothing was redacted (no credential found, no --redact match)"
        return
    yield f"review: {total} redaction{'s' if total != 1 else ''} (the values are not shown)"
    for finding in findings:
        times = f" ×{finding.count}" if finding.count > 1 else ""
        yield f"  {finding.kind}{times} — {finding.where}"


def _strings(value: object, hide: Callable[[str], str]) -> object:
    """``value`` (redacted JSON: bounded depth) with ``hide`` applied to every string and key."""
    if isinstance(value, str):
        return hide(value)
    if isinstance(value, dict):
        return {_strings(key, hide): _strings(item, hide) for key, item in value.items()}
    if isinstance(value, list):
        return [_strings(item, hide) for item in value]
    return value
