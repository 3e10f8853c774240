"""Redaction: a corpus of fake credentials, benign look-alikes, cost bounds."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.safety import SECRET_PATTERNS, SENSITIVE_KEYS, SecretPattern, redact, redact_json
from toolview.safety.secrets import PREFILTER_MAX, redaction_cost, scan

from .corpus import BENIGN, SECRETS


@pytest.mark.parametrize(("name", "before", "secret", "after"), SECRETS)
def test_each_credential_format_is_redacted_with_its_name(
    name: str, before: str, secret: str, after: str
) -> None:
    out = redact(before + secret + after)
    assert secret not in out
    assert f"[redacted: {name}]" in out


def test_the_corpus_covers_at_least_forty_formats() -> None:
    assert len(SECRETS) >= 40
    assert len({name for name, *_ in SECRETS}) >= 35


@pytest.mark.parametrize(("name", "before", "secret", "after"), SECRETS)
def test_text_around_a_secret_is_kept(name: str, before: str, secret: str, after: str) -> None:
    out = redact(before + secret + after)
    if name not in {"slack-webhook", "discord-webhook", "private-key"}:
        assert out.startswith(before.split("=")[0].split(":")[0])
    assert out.endswith(after.split(";")[-1])


@pytest.mark.parametrize("text", BENIGN)
def test_benign_look_alikes_are_left_alone(text: str) -> None:
    assert redact(text) == text


def test_url_password_keeps_user_and_host() -> None:
    assert redact("https://bob:s3cr3t@example.com/x") == (
        "https://bob:[redacted: url-password]@example.com/x"
    )


def test_authorization_header_keeps_its_scheme() -> None:
    assert redact("Authorization: Bearer abc123def") == (
        "Authorization: Bearer [redacted: authorization-header]"
    )


def test_a_secret_split_by_a_label_is_one_mark() -> None:
    token = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
    assert redact(f"GITHUB_TOKEN={token}") == "GITHUB_TOKEN=[redacted: github-token]"


def test_patterns_are_named_and_typed() -> None:
    assert all(isinstance(p, SecretPattern) for p in SECRET_PATTERNS)
    names = [p.name for p in SECRET_PATTERNS]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[a-z0-9_-]+", n) for n in names)
    for pattern in SECRET_PATTERNS:
        if pattern.lowercase:
            assert all(lit == lit.lower() for lit in pattern.literals)


@pytest.mark.parametrize(
    ("key", "sensitive"),
    [
        ("password", True),
        ("DB_PASSWORD", True),
        ("githubToken", True),
        ("X-Api-Key", True),
        ("client_secret", True),
        ("Authorization", True),
        ("set-cookie", True),
        ("pwd", True),
        ("token_count", False),
        ("max_tokens", False),
        ("tokenizer", False),
        ("author", False),
        ("password_hash", False),
        ("username", False),
        ("secrets_dir", False),
    ],
)
def test_sensitive_keys(key: str, sensitive: bool) -> None:
    assert (SENSITIVE_KEYS.search(key) is not None) is sensitive


def test_redact_json_walks_values_and_keys() -> None:
    token = "ghp_" + "Zz9" * 12
    value = {
        "password": {"nested": "anything"},
        "Api-Key": 12345,
        "list": ["plain", f"uses {token}", 3, 2.5, True, None],
        token: "key holds a secret",
        "token_count": 7,
        "tuple": ("a", "b"),
    }
    assert redact_json(value) == {
        "password": "[redacted: password]",
        "Api-Key": "[redacted: api_key]",
        "list": ["plain", "uses [redacted: github-token]", 3, 2.5, True, None],
        "[redacted: github-token]": "key holds a secret",
        "token_count": 7,
        "tuple": ["a", "b"],
    }


def test_redact_json_does_not_modify_its_input() -> None:
    value = {"a": ["password=hunter22"]}
    redact_json(value)
    assert value == {"a": ["password=hunter22"]}


def test_redact_json_depth_limit() -> None:
    deep: object = "leaf"
    for _ in range(10_000):
        deep = [deep]
    out = redact_json(deep, max_depth=3)
    assert out == [[[["[depth limit]"]]]]


def test_redact_json_survives_cycles_and_odd_objects() -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)
    assert "[depth limit]" in repr(redact_json(cyclic, max_depth=5))

    class Loud:
        def __str__(self) -> str:
            raise RuntimeError("no")

    assert redact_json({"x": Loud()}) == {"x": "[unprintable Loud]"}
    assert redact_json(b"password=abc") == "b'password=[redacted: password]'"


ADVERSARIAL = [
    "a" * 1_000_000,
    "eyJ" * 333_333,
    "eyJa." * 200_000,
    "sk-" * 333_333,
    "password=" * 111_111,
    "password: " * 100_000,
    '"password": "' * 76_923,
    "://a:" * 200_000,
    "://" + "a" * 1_000_000,
    "-----BEGIN PRIVATE KEY-----" * 37_000,
    "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 1_000_000,
    ":AA" * 333_333,
    ".abcdef." * 125_000,
    "AKIA" * 250_000,
    "Authorization: " * 66_666,
    "cookie: " * 125_000,
    "k_live_" * 142_857,
    "1" * 1_000_000 + ":AA",
    "x-" * 500_000,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=lambda t: repr(t[:12]))
def test_adversarial_megabyte_lines_stay_linear(text: str) -> None:
    start = time.thread_time()
    out = redact(text)
    assert isinstance(out, str)
    assert time.thread_time() - start < 10.0  # quadratic would take hours


_FRAGMENTS = st.sampled_from(
    [f"{before}{secret}{after}" for _, before, secret, after in SECRETS[::3]]
    + ["password", "=", ":", '"', "'", " ", "\n", "[redacted: x]", "://", "@", "eyJ", "."]
)


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_redact_is_total_and_idempotent_on_any_text(text: str) -> None:
    out = redact(text)
    assert isinstance(out, str)
    assert redact(out) == out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=5)), max_size=12).map("".join))
def test_redact_is_idempotent_on_secret_shaped_text(text: str) -> None:
    out = redact(text)
    assert redact(out) == out


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=30,
)


@settings(max_examples=100, deadline=None)
@given(_JSON)
def test_redact_json_never_raises(value: object) -> None:
    redact_json(value)


def test_case_folding_keeps_positions_with_dotted_capital_i() -> None:
    # "İ".lower() is two characters; spans must still land on the right text.
    assert redact("İİ PASSWORD=hunter22 İ") == "İİ PASSWORD=[redacted: password] İ"


def test_adjacent_authorization_headers_are_both_redacted() -> None:
    """A header value stops at brackets: a Markdown link repeating it leaks nothing."""
    value = "YWxpY2U6g4RrF1K14jZQyko6=="
    text = f"* [authorization: Basic {value}](authorization: Basic {value})"
    redacted = redact(text)
    assert value not in redacted
    assert redacted.count("[redacted: authorization-header]") == 2


@pytest.mark.parametrize("prefix", ["", "+", "-", "--", " ", "self._", "opts."])
def test_a_value_that_is_only_the_key_name_is_kept_whatever_precedes_the_key(
    prefix: str,
) -> None:
    """A diff's "-" marker, a flag's dashes or an attribute path is not part of the key's name."""
    assert redact(f"{prefix}password=password") == f"{prefix}password=password"
    assert redact(f"{prefix}API_KEY=api_key") == f"{prefix}API_KEY=api_key"


def test_a_diff_keeps_the_benign_line_and_hides_the_real_secret() -> None:
    diff = "-password=password\n+password=hunter22x"
    assert redact(diff) == "-password=password\n+password=[redacted: password]"
    assert redact("-password=hunter22x") == "-password=[redacted: password]"
    assert redact("x-password=password") == "x-password=[redacted: password]"


def test_a_fixed_length_token_right_before_a_pem_fence_is_redacted_in_one_pass() -> None:
    """A run of dashes ends a token: a key glued to ``-----BEGIN`` must not leak."""
    key = "SG." + "a1B2c3D4e5F6g7H8i9J0kL" + "." + "m1N2o3P4q5R6s7T8u9V0wX1y2Z3a4B5c6D7e8F9g0Hi"
    text = f"{key}-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----"
    once = redact(text)
    assert key not in once
    assert "MIIB" not in once
    assert redact(once) == once


@pytest.mark.parametrize(("name", "before", "secret", "after"), SECRETS)
def test_the_prefilter_lets_every_credential_through(
    name: str, before: str, secret: str, after: str
) -> None:
    """Short texts go through one combined search first: it must never hide a
    secret from the patterns, even cut down to the secret and a little around it."""
    text = (before[-40:] + secret + after[:40])[:PREFILTER_MAX]
    assert redact(text) == scan(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=5)), max_size=8).map("".join))
def test_the_prefilter_never_changes_the_result(text: str) -> None:
    assert redact(text) == scan(text)


def test_a_short_text_with_no_trigger_runs_no_anchored_pattern() -> None:
    """Counted, not timed: a text with no pattern's literal start runs one literal
    scan and the patterns no literal can tell (the Discord token's "."), nothing else."""
    text = "call-0a1b2c3d shell completed in 12 ms"
    assert redact(text) == text
    cost = redaction_cost(text)
    assert cost.attempts == 0 and cost.scans <= 2, cost
    assert redaction_cost("token=" + text).attempts == 1
