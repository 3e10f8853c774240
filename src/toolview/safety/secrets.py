"""Hide credentials in text and in JSON-like values.

Every pattern scans the *original* text and reports spans; overlapping spans
are merged (the earlier pattern names the merged span) and the text is rebuilt
once. Scanning the original (not the output of the previous pattern) keeps the
cost at one scan per pattern and makes the result independent of which
pattern happened to run first.
"""

from __future__ import annotations

from toolview.safety.commands import COMMAND_PATTERNS
from toolview.safety.context import CONTEXT_PATTERNS
from toolview.safety.keys import KEY_VALUE_PATTERNS, key_name
from toolview.safety.manifests import MANIFEST_PATTERNS
from toolview.safety.patterns import SecretPattern, lower_text, mark
from toolview.safety.prefilter import Cost, Prefilter
from toolview.safety.tokens import TOKEN_PATTERNS

__all__ = [
    "DEPTH_MARK",
    "PREFILTER_MAX",
    "SECRET_PATTERNS",
    "SIZE_MARK",
    "mark",
    "rebuild",
    "redact",
    "redact_json",
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


_PREFILTER = Prefilter(SECRET_PATTERNS)

# Kept for callers that cut a text before testing it: the prefilter no longer
# depends on the text's size (it was the limit of the old combined search).
PREFILTER_MAX = 1024

DEPTH_MARK = "[depth limit]"
SIZE_MARK = "[size limit]"
_SHORTEST = 5  # "pwd=x": no credential format is shorter
_MAX_NODES = 1_000_000  # a shared sub-list repeated at every level is exponential


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
    lowered: list[str] = []

    def lower() -> str:
        if not lowered:
            lowered.append(lower_text(text))
        return lowered[0]

    spans = _PREFILTER.spans(text, lower)
    return _merge(spans) if spans else []


def redaction_cost(text: str) -> Cost:
    """How :func:`redact` reads ``text``, counted: whole-text scans, copies,
    regex attempts at a start (bench/redaction.py and the tests use it)."""
    return _PREFILTER.cost(text, lambda: lower_text(text))


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


def _scalar(value: object) -> object:
    """JSON scalars pass through, strings are redacted, anything else is shown
    as its redacted ``str()`` -- an unknown object is not trusted to be clean."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return redact(value)
    try:
        return redact(str(value))
    except Exception:
        return f"[unprintable {type(value).__name__}]"


def redact_json(value: object, *, max_depth: int = 64) -> object:
    """A redacted copy of a JSON-like value; the input is never modified.

    Strings (dict keys included) go through :func:`redact`; the value under a
    sensitive key (see ``SENSITIVE_KEYS``) is replaced whole, whatever its
    type; a value nested deeper than ``max_depth`` containers becomes
    ``"[depth limit]"``. Iterative, so no recursion limit; never raises.
    """
    root: list[object] = [None]
    tasks: list[tuple[object, int, list[object], int]] = [(value, 0, root, 0)]
    dicts: list[tuple[dict[object, object], list[object], list[object]]] = []
    nodes = 0
    while tasks:
        item, depth, target, slot = tasks.pop()
        nodes += 1
        if depth > max_depth:
            target[slot] = DEPTH_MARK
        elif nodes > _MAX_NODES:
            target[slot] = SIZE_MARK
        elif isinstance(item, dict):
            keys, values = _dict_entries(item, depth, tasks)
            out: dict[object, object] = {}
            dicts.append((out, keys, values))
            target[slot] = out
        elif isinstance(item, list | tuple):
            items: list[object] = [None] * len(item)
            tasks.extend((child, depth + 1, items, i) for i, child in enumerate(item))
            target[slot] = items
        else:
            target[slot] = _scalar(item)
    for out, keys, values in dicts:
        out.update(zip(keys, values, strict=True))
    return root[0]


def _dict_entries(
    item: dict[object, object], depth: int, tasks: list[tuple[object, int, list[object], int]]
) -> tuple[list[object], list[object]]:
    """Redacted keys, and a value list the queued tasks fill in."""
    keys: list[object] = []
    values: list[object] = []
    for key, child in item.items():
        name = key_name(key) if isinstance(key, str) else None
        keys.append(redact(key) if isinstance(key, str) else key)
        values.append(mark(name) if name is not None else None)
        if name is None:
            tasks.append((child, depth + 1, values, len(values) - 1))
    return keys, values
