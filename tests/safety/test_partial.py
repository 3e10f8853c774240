"""The hold-back rule for a running call's text (``safety.partial``), and opaque ids."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from toolview.safety import redact
from toolview.safety.opaque import OPAQUE_PREFIX, opaque_id
from toolview.safety.partial import HOLD_LIMIT, held_back, redact_partial
from toolview.safety.patterns import SECRET_PREFIXES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))
from split_secrets import SPLIT_CASES, leak


def test_the_unterminated_last_token_is_held_back() -> None:
    assert redact_partial("key id AKIABUN2") == "key id "
    assert redact_partial("line one\nline tw") == "line one\nline "
    assert redact_partial("all done\n") == "all done\n"
    assert redact_partial("no-space-yet") == ""
    assert redact_partial("") == ""


def test_what_is_sent_is_redacted() -> None:
    secret = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
    assert redact_partial(f"token {secret} and mo") == "token [redacted: github-token] and "


def test_every_kind_of_whitespace_ends_a_token() -> None:
    for space in (" ", "\t", "\r", "\n", "\x0b", "\x0c", "\x85", "\u00a0", "\u2028", "\u3000"):
        assert held_back(f"ab{space}cd") == 3, repr(space)


def blob(n: int, seed: int = 1) -> str:
    """``n`` characters of base64 without any whitespace (and no secret prefix)."""
    rng = random.Random(seed)
    text = "".join(
        rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123") for _ in range(n)
    )
    for prefix in SECRET_PREFIXES:
        text = text.replace(prefix, "x" * len(prefix))
    return text


def test_an_overlong_blob_shows_all_but_its_last_hold_limit_characters() -> None:
    text = blob(3 * HOLD_LIMIT)
    assert held_back(text) == len(text) - HOLD_LIMIT


def test_an_overlong_token_is_never_cut_inside_a_word() -> None:
    words = ",".join(["abcdefgh"] * 2000)  # one token of many short words
    cut = held_back(words)
    assert words[cut - 1] == "," and len(words) - cut >= HOLD_LIMIT


def test_an_overlong_word_with_a_secret_prefix_is_held_to_its_end() -> None:
    for head in ("eyJ", "ghp_", "AKIA", "LS0tLS1CRUdJTi"):
        text = "data:" + head + blob(3 * HOLD_LIMIT)
        assert held_back(text) == len("data:"), head


def test_an_overlong_password_after_scheme_user_is_held_until_its_at() -> None:
    text = "https://alice:" + blob(3 * HOLD_LIMIT)
    assert held_back(text) == len("https://alice:")
    done = text + "@example.com/x"  # the "@" is there: the URL pattern hides it whole
    assert blob(20) not in redact(done)


@pytest.mark.parametrize(
    ("label", "before", "after", "secret"),
    [c for c in SPLIT_CASES if not any(ch.isspace() for ch in c[3])],
    ids=[c[0] for c in SPLIT_CASES if not any(ch.isspace() for ch in c[3])],
)
def test_a_secret_where_an_overlong_token_is_cut_never_leaks(
    label: str, before: str, after: str, secret: str
) -> None:
    """A whole secret in a token far over the limit, the limit falling at each character."""
    filler = ",".join(["abcdefgh"] * (HOLD_LIMIT // 4))
    context = "" if not before or before[-1].isspace() else before.split()[-1]
    head = filler + "," + context
    for p in range(len(secret)):
        tail = ("," + filler)[: HOLD_LIMIT + p - len(secret)]
        text = head + secret + tail
        assert len(text) - HOLD_LIMIT == len(head) + p  # the limit falls inside the secret
        shown = redact_partial(text)
        assert leak(shown, head, secret, after) is None, (p, shown[-80:])


def test_an_opaque_id_is_stable_distinct_and_left_alone_by_redaction() -> None:
    first, second = "call-" + "ghp_" + "a" * 35 + "1", "call-" + "ghp_" + "b" * 35 + "1"
    assert opaque_id(first) == opaque_id(first)
    assert opaque_id(first) != opaque_id(second)
    assert opaque_id(first).startswith(OPAQUE_PREFIX) and "ghp_" not in opaque_id(first)
    for value in (first, second, "x", "\ud800"):
        assert redact(opaque_id(value)) == opaque_id(value)
