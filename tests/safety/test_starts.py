"""The secret patterns' literal starts read ahead (``safety.starts``) are what their regexes
say, and cover every pattern: start-up skips ~50 regex parses, and nothing redacted changes.

A stale table (a pattern edited since it was generated) fails here; regenerate it with
``starts_gen.starts_table`` (its docstring says how).
"""

from __future__ import annotations

from toolview.safety.anchors import literal_starts, read_starts
from toolview.safety.secrets import SECRET_PATTERNS
from toolview.safety.starts import KNOWN_STARTS


def test_every_secret_pattern_has_its_starts_read_ahead_exactly() -> None:
    for pattern in SECRET_PATTERNS:
        key = (pattern.regex.pattern, pattern.regex.flags)
        assert key in KNOWN_STARTS, f"{pattern.name}: not in safety.starts (regenerate it)"
        assert KNOWN_STARTS[key] == read_starts(pattern.regex), pattern.name
        assert literal_starts(pattern.regex) == read_starts(pattern.regex), pattern.name
    assert len(KNOWN_STARTS) == len({(p.regex.pattern, p.regex.flags) for p in SECRET_PATTERNS})
