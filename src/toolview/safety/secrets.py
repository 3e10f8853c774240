"""Hide credentials in text and in JSON-like values.

Every pattern scans the *original* text and reports spans; overlapping spans
are merged (the earlier pattern names the merged span) and the text is rebuilt
once. Scanning the original (not the output of the previous pattern) keeps the
cost at one scan per pattern and makes the result independent of which
pattern happened to run first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from toolview.safety.commands import COMMAND_PATTERNS
from toolview.safety.context import CONTEXT_PATTERNS
from toolview.safety.keys import KEY_VALUE_PATTERNS
from toolview.safety.manifests import MANIFEST_PATTERNS
from toolview.safety.patterns import SecretPattern, lower_text, mark
from toolview.safety.prefilter import Cost, Prefilter
from toolview.safety.tokens import TOKEN_PATTERNS

__all__ = [
    "PREFILTER_MAX",
    "SECRET_PATTERNS",
    "mark",
    "prefilter",
    "rebuild",
    "redact",
    "redact_many",
    "redaction_cost",
    "scan",
    "secret_spans",
]

SECRET_PATTERNS: tuple[SecretPattern, ...] = (
    *TOKEN_PATTERNS,
    *CONTEXT_PATTERNS,
    *MANIFEST_PATTERNS,
    *COMMAND_PATTERNS,
    *KEY_VALUE_PATTERNS,
)
"""In priority order: when spans overlap, the earliest pattern names the mark."""


@cache
def prefilter() -> Prefilter:
    """The prefilter of ``SECRET_PATTERNS``, built on first use (reading the
    patterns' starts costs a few ms that a command which redacts nothing skips)."""
    return Prefilter(SECRET_PATTERNS)


# Kept for callers that cut a text before testing it: the prefilter no longer
# depends on the text's size (it was the limit of the old combined search).
PREFILTER_MAX = 1024

_SHORTEST = 5  # "pwd=x": no credential format is shorter


def _merge(spans: list[tuple[int, int, int, str]]) -> list[tuple[int, int, str]]:
    """Union overlapping spans; the earliest pattern's name wins."""
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    best = -1
    for start, end, rank, name in spans:
        if merged and start < merged[-1][1]:
            last_start, last_end, last_name = merged[-1]
            if rank < best:
                last_name, best = name, rank
            merged[-1] = (last_start, max(last_end, end), last_name)
        else:
            merged.append((start, end, name))
            best = rank
    return merged


def redact(text: str) -> str:
    """Replace every credential found with ``[redacted: <pattern-name>]``.

    Idempotent (a mark is never taken for a secret), linear in ``len(text)``
    and never raises. See docs/safety.md for the pattern list.
    """
    spans = secret_spans(text)
    return rebuild(text, spans) if spans else text


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """The merged, sorted spans :func:`redact` hides: ``(start, end, name)``.

    For a caller that keeps data aligned with the text (styled runs of
    terminal output) and must move it where a mark replaces a secret.
    """
    if len(text) < _SHORTEST:
        return []
    lowered = _lazy_lower(text)
    filtered = prefilter()
    found = filtered.finder.find(text, lowered)
    if not found and filtered.plain(text):
        return []  # most texts: one literal scan, nothing else
    spans = filtered.spans(text, lowered, found)
    return _merge(spans) if spans else []


def redact_many(texts: list[str]) -> list[str]:
    """``[redact(text) for text in texts]``, with one literal scan for them all.

    For structured values (a JSON result's keys and strings): most are short
    and plain, and each would pay the scanner's fixed cost. The scan of the
    joined texts tells each text where its literals are (none crosses from one
    text to the next: no literal holds the separator), so each text is then
    redacted exactly as :func:`redact` would, without a scan of its own.
    """
    filtered = prefilter()
    each = filtered.find_each(texts)
    out: list[str] = []
    for index, text in enumerate(texts):
        found = each.get(index, {})
        if len(text) < _SHORTEST or (not found and filtered.plain(text)):
            out.append(text)
            continue
        spans = filtered.spans(text, _lazy_lower(text), found)
        out.append(rebuild(text, _merge(spans)) if spans else text)
    return out


def _lazy_lower(text: str) -> Callable[[], str]:
    lowered: list[str] = []

    def lower() -> str:
        if not lowered:
            lowered.append(lower_text(text))
        return lowered[0]

    return lower


def redaction_cost(text: str) -> Cost:
    """How :func:`redact` reads ``text``, counted: whole-text scans, copies,
    regex attempts at a start (bench/redaction.py and the tests use it)."""
    return prefilter().cost(text, lambda: lower_text(text))


def scan(text: str, lowered: str | None = None) -> str:
    """:func:`redact` without its prefilter: every pattern scans the whole
    ``text``. The reference the prefilter is tested against."""
    spans = _spans(text, lowered)
    return rebuild(text, spans) if spans else text


def _spans(text: str, lowered: str | None) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, int, str]] = []
    for rank, pattern in enumerate(SECRET_PATTERNS):
        if pattern.lowercase:
            if lowered is None:
                lowered = lower_text(text)
            hay = lowered
        else:
            hay = text
        spans.extend((start, end, rank, name) for start, end, name in pattern.spans(hay))
    return _merge(spans) if spans else []


def rebuild(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each of the merged ``spans`` replaced by its mark."""
    parts: list[str] = []
    position = 0
    for start, end, name in spans:
        parts.append(text[position:start])
        parts.append(mark(name))
        position = end
    parts.append(text[position:])
    return "".join(parts)
