"""Hide credentials in text and in JSON-like values.

Every pattern scans the *original* text and reports spans; overlapping spans
are merged (the earlier pattern names the merged span) and the text is rebuilt
once. Scanning the original (not the output of the previous pattern) keeps the
cost at one scan per pattern and makes the result independent of which
pattern happened to run first.

A text holding escape sequences is scanned twice: as written (a secret inside
an OSC link's target) and as a reader sees it (``safety.seen``: a token cut
by colour codes is whole there), the second's spans mapped back onto the
original. A mark then covers the whole secret, the codes inside it included;
the colour codes it swallowed follow it (``safety.spans.kept_styles``), so
what comes after keeps its colours. This is the one entry point for every
string that leaves toolview: the server's field redaction, records, the
surfaces' ``clean_text`` and live partials all call it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from toolview.safety.commands import COMMAND_PATTERNS
from toolview.safety.context import CONTEXT_PATTERNS
from toolview.safety.keys import KEY_VALUE_PATTERNS
from toolview.safety.literal_scan import Found
from toolview.safety.manifests import MANIFEST_PATTERNS
from toolview.safety.patterns import SecretPattern, lower_text, mark
from toolview.safety.prefilter import Cost, Prefilter, RankedSpan
from toolview.safety.seen import Seen, reader_view, written_and_seen
from toolview.safety.sequences import has_sequence
from toolview.safety.spans import merge_spans, rebuild
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
        return []  # nor can what a reader sees of it be longer
    if "\x1b" in text or (not text.isascii() and ("\x9b" in text or "\x9d" in text)):
        spans = written_and_seen(text, _ranked)
        return merge_spans(spans) if spans else []
    # most text (has_sequence, inlined): _ranked, inlined too
    lowered = _lazy_lower(text)
    filtered = prefilter()
    found = filtered.finder.find(text, lowered)
    if not found and filtered.plain(text):
        return []  # one literal scan, nothing else
    spans = filtered.spans(text, lowered, found)
    return merge_spans(spans) if spans else []


def _ranked(text: str, found: Found | None = None) -> list[RankedSpan]:
    """Every pattern's spans in ``text``, unmerged; ``found``: its literals, if known."""
    if len(text) < _SHORTEST:
        return []
    lowered = _lazy_lower(text)
    filtered = prefilter()
    if found is None:
        found = filtered.finder.find(text, lowered)
    if not found and filtered.plain(text):
        return []  # most texts: one literal scan, nothing else
    return filtered.spans(text, lowered, found)


def redact_many(texts: list[str]) -> list[str]:
    """``[redact(text) for text in texts]``, with one literal scan for them all.

    For structured values (a JSON result's keys and strings): most are short
    and plain, and each would pay the scanner's fixed cost. The scan of the
    joined texts tells each text where its literals are (none crosses from one
    text to the next: no literal holds the separator), so each text is then
    redacted exactly as :func:`redact` would, without a scan of its own. The
    texts that hold escape sequences are seen as a reader sees them the same
    way: one scan of those views joined.
    """
    filtered = prefilter()
    joined = "\x00".join(texts)
    if has_sequence(joined):
        return _redact_seen(texts)
    each = filtered.find_each(texts, joined)
    out: list[str] = []
    for index, text in enumerate(texts):
        found = each.get(index, {})
        if len(text) < _SHORTEST or (not found and filtered.plain(text)):
            out.append(text)
            continue
        spans = filtered.spans(text, _lazy_lower(text), found)
        out.append(rebuild(text, merge_spans(spans)) if spans else text)
    return out


def _redact_seen(texts: list[str]) -> list[str]:
    """:func:`redact_many` of texts some of which hold escape sequences: those
    scanned as seen (and as written where a string sequence is), one scan each way."""
    filtered = prefilter()
    views = _views(texts)
    # a text with escapes is scanned as written only where a string sequence is (its view
    # holds the rest): "" keeps its place in the list and costs no scan
    scanned = [
        (v.written() if v.strings else "") if (v := views.get(i)) else t
        for i, t in enumerate(texts)
    ]
    each = filtered.find_each(scanned)
    in_views = filtered.find_each([view.text for view in views.values()])
    number = {index: number for number, index in enumerate(views)}  # its index in in_views
    out: list[str] = []
    for index, text in enumerate(texts):
        view = views.get(index)
        if view is None:
            spans = _ranked(text, each.get(index, {}))
        else:
            as_written = _ranked(view.written(), each.get(index, {})) if view.strings else []
            spans = view.union(as_written, _ranked(view.text, in_views.get(number[index], {})))
        out.append(rebuild(text, merge_spans(spans)) if spans else text)
    return out


def _views(texts: list[str]) -> dict[int, Seen]:
    """The texts that hold escape sequences, by index, as a reader sees them."""
    return {index: view for index, text in enumerate(texts) if (view := reader_view(text))}


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
    ``text`` (and its reader's view). The reference the prefilter is tested against."""
    spans = written_and_seen(text, lambda hay: _spans(hay, lowered if hay is text else None))
    return rebuild(text, merge_spans(spans)) if spans else text


def _spans(text: str, lowered: str | None) -> list[RankedSpan]:
    spans: list[RankedSpan] = []
    for rank, pattern in enumerate(SECRET_PATTERNS):
        if pattern.lowercase:
            if lowered is None:
                lowered = lower_text(text)
            hay = lowered
        else:
            hay = text
        spans.extend((start, end, rank, name) for start, end, name in pattern.spans(hay))
    return spans
