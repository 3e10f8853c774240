"""The prefilter only skips work that could not match: it never hides a secret.

Every test compares the filtered path (``redact``) with the unfiltered one
(``scan``: every pattern's regex over the whole text), or counts what the
filtered path reads. Nothing here is timed.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolview.safety import SECRET_PATTERNS, redact, redact_json
from toolview.safety.anchors import literal_starts
from toolview.safety.patterns import SecretPattern, accept, compile_pattern, lower_text
from toolview.safety.prefilter import Prefilter
from toolview.safety.secrets import (
    prefilter,
    redact_many,
    redaction_cost,
    scan,
    secret_spans,
)

from .corpus import BENIGN, SECRETS

_EXAMPLES = [before + secret + after for _, before, secret, after in SECRETS]
_TEXTS = _EXAMPLES + BENIGN


def _bench_corpus(size_mb: float) -> str:
    """bench/redaction.py's log (seeded: the same text every run)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "redaction.py"
    spec = importlib.util.spec_from_file_location("bench_redaction", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    text: str = module.make_corpus(size_mb)
    return text


@pytest.mark.parametrize("pattern", SECRET_PATTERNS, ids=lambda p: p.name)
def test_every_match_begins_with_one_of_the_starts_read_from_the_regex(
    pattern: SecretPattern,
) -> None:
    """Over every example secret and look-alike: no match starts anywhere else."""
    starts = literal_starts(pattern.regex)
    if starts is None:
        pytest.skip("no literal start: this pattern runs over the whole text")
    matched = 0
    for text in _TEXTS:
        hay = lower_text(text) if pattern.lowercase else text
        for match in pattern.regex.finditer(hay):
            matched += 1
            assert hay.startswith(starts, match.start()), (pattern.name, match.group())
    assert matched or pattern.scan is not None or pattern.name == "twilio-api-key"


@pytest.mark.parametrize(
    ("regex", "starts"),
    [
        (r"(?:AKIA|ASIA)[A-Z]{16}", ("AKIA", "ASIA")),
        (r"sk-[a-z]+|sk-ant-\w+", ("sk-",)),  # a start that extends another is found with it
        (r"api[_-]?key", ("api-key", "api_key", "apikey")),
        (r"x[ab]+y", ("xa", "xb")),  # one repetition is certain, what follows is not
        (r"https?://h", ("http://h", "https://h")),
        (r"\d+x", None),
        (r"a?b", ("ab", "b")),
        (r"(?i:key)=", None),
        (r"(?=a)ab", None),
        (r".", None),
    ],
)
def test_literal_starts(regex: str, starts: tuple[str, ...] | None) -> None:
    assert literal_starts(re.compile(regex)) == starts


def test_a_pattern_with_a_literal_the_byte_scan_cannot_see_runs_as_it_would_alone() -> None:
    """Every literal is scanned as one byte per character (non-ASCII as "?"):
    a pattern whose start or gate is not ASCII checks its own literals."""
    patterns = (
        compile_pattern("accented", r"clé=(?P<secret>\w+)", locate=accept),
        compile_pattern("gated", r"k=(?P<secret>\w+)", "mot de passe ?", locate=accept),
        compile_pattern("plain", r"pwd=(?P<secret>\w+)", locate=accept),
    )
    prefilter = Prefilter(patterns)
    for text in ("clé=abc pwd=x k=y", "mot de passe ? k=zz", "k=zz", "cle=abc ✓"):
        expected = sorted(
            (start, end, rank, name)
            for rank, pattern in enumerate(patterns)
            for start, end, name in pattern.spans(text)
        )
        assert sorted(prefilter.spans(text, text.lower)) == expected, text


_NOISE = st.sampled_from(
    [
        *(" ", "\n", "=", ":", '"', "'", ".", "-", "_", "/", "@", "://", "x", "\t", "\\n"),
        *("PASSWORD", "Token", "AUTHORIZATION: ", "\u212aey=", "\u0130", "SECRET_KEY=", "✓"),
        *("curl ", "mysql ", "login u ", "kind: Secret\n", '"kind": "Secret"', "apiVersion: v1\n"),
    ]
)
_TEXT = st.lists(
    st.one_of(st.sampled_from(_EXAMPLES), _NOISE, st.text(max_size=8)), max_size=10
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_the_prefilter_never_changes_what_is_hidden(text: str) -> None:
    """The pattern set's own example secrets, in random text (ASCII or not): the
    filtered path hides exactly what every pattern over the whole text hides."""
    assert redact(text) == scan(text)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
@example("\u4100\u4300\u0100 curl")  # the UTF-32 bytes of "AC" across three code units
def test_the_fast_and_the_stdlib_literal_finders_agree(text: str) -> None:
    """Hyperscan (bytes or UTF-32, caseless) finds what ``str.find`` finds."""
    finder = prefilter().finder
    lowered = lower_text(text)
    assert finder.find(text, lambda: lowered) == finder.find_stdlib(text, lambda: lowered)


@settings(max_examples=100, deadline=None)
@given(_TEXT)
def test_without_hyperscan_the_result_is_the_same(text: str) -> None:
    """The fallback for platforms with no Hyperscan wheel: ``str.find`` per literal."""
    lowered = lower_text(text)
    found = prefilter().finder.find_stdlib(text, lambda: lowered)
    stdlib = prefilter().spans(text, lambda: lowered, found)
    fast = prefilter().spans(text, lambda: lowered)
    assert sorted(stdlib) == sorted(fast)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_TEXT, st.just("a\x00password=x\x00b")), max_size=12))
def test_many_texts_redacted_together_are_each_redacted_as_alone(texts: list[str]) -> None:
    """One literal scan of the texts joined: nothing found in one text leaks
    into its neighbour's plan (a separator inside a text changes nothing)."""
    assert redact_many(texts) == [redact(text) for text in texts]


def test_a_json_result_is_redacted_string_by_string() -> None:
    value = {
        "items": [{"id": f"item-{i}", "text": text} for i, text in enumerate(_TEXTS)],
        "password": "hunter22",
        _EXAMPLES[8]: [1, None, True, 2.5],
    }
    out = redact_json(value)
    assert isinstance(out, dict)
    assert out["items"] == [
        {"id": f"item-{i}", "text": redact(text)} for i, text in enumerate(_TEXTS)
    ]
    assert out["password"] == "[redacted: password]"
    assert out[redact(_EXAMPLES[8])] == [1, None, True, 2.5]


@pytest.mark.parametrize(("name", "before", "secret", "after"), SECRETS)
def test_each_example_secret_in_a_large_log_is_hidden(
    name: str, before: str, secret: str, after: str, bulk_log: str
) -> None:
    """In the middle of a log (~50 kB), as the unfiltered path hides it."""
    middle = len(bulk_log) // 2
    text = bulk_log[:middle] + "\n" + before + secret + after + "\n" + bulk_log[middle:]
    out = redact(text)
    assert out == scan(text)
    assert f"[redacted: {name}]" in out


@pytest.fixture(scope="module")
def bulk_log() -> str:
    return _bench_corpus(0.05)


def test_a_log_is_read_at_most_five_times(bulk_log: str) -> None:
    """Counted, not timed: one literal scan, the whole-text patterns no literal
    tells, and nothing per pattern -- the unfiltered path reads it once per pattern."""
    cost = redaction_cost(bulk_log)
    assert cost.scans <= 5, cost
    assert cost.copies <= 2, cost
    assert cost.attempts <= len(bulk_log) / 100, cost  # a start per ~2 lines at most
    assert len(SECRET_PATTERNS) > 5 * cost.scans  # what scan() pays: one pass per pattern


@pytest.mark.parametrize("text", [*_TEXTS[::7], "✓ ok " * 1000 + "password=hunter22x"])
def test_any_text_is_read_at_most_five_times(text: str) -> None:
    assert redaction_cost(text).scans <= 5


def test_threads_redact_at_once_with_their_own_scratch(bulk_log: str) -> None:
    """Hyperscan scans without the GIL: each thread needs its own scratch space."""
    texts = [bulk_log + "\n" + example for example in _EXAMPLES[:8]]
    expected = [secret_spans(text) for text in texts]
    results: dict[int, list[list[tuple[int, int, str]]]] = {}
    start = threading.Barrier(4)

    def work(number: int) -> None:
        start.wait()
        results[number] = [secret_spans(text) for text in texts for _ in range(3)][::3]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results[n] == expected for n in range(4))
