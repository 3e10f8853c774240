"""``safety.redacted``: inside ``trusting``, the very string a redaction returned is taken as
it is; a copy of it, a slice, or anything decoded from it is scanned as ever."""

from __future__ import annotations

import json

from toolview.safety import redact, redact_json
from toolview.safety.output import Styled, redact_styled
from toolview.safety.redacted import Trusted, is_redacted, trusting

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
MARK = "[redacted: github-token]"


def _held(text: str, trusted: Trusted) -> str:
    """``text`` held by identity (a misuse on purpose: it holds a secret, to show the skip)."""
    return trusted.keep(text)


def test_only_the_held_object_is_skipped_an_equal_copy_is_scanned() -> None:
    trusted = Trusted()
    held = _held(f"token {GITHUB}", trusted)
    copy = "".join(list(held))  # equal by value, another object
    assert copy == held and copy is not held
    with trusting(trusted):
        assert redact(held) is held  # not scanned: trusted by identity
        assert redact(copy) == f"token {MARK}"
        assert redact_styled(Styled(held, ())).text == held
        assert redact_json({"k": held, "c": copy}) == {"k": held, "c": f"token {MARK}"}


def test_what_is_derived_from_a_held_string_is_redacted() -> None:
    """A slice (a surface's window) and a decoded JSON escape are new strings: scanned."""
    trusted = Trusted()
    escaped = json.dumps({"k": GITHUB.replace("g", "\\u0067", 1)}).replace("\\\\", "\\")
    held = _held(redact(escaped), trusted)
    assert GITHUB not in held and redact(held) == held  # a fixpoint: nothing to see raw
    window = _held(f"token {GITHUB} end", trusted)
    with trusting(trusted):
        assert redact_json(json.loads(held)) == {"k": MARK}
        assert redact(window[:-4]) == f"token {MARK}"


def test_outside_trusting_nothing_is_skipped() -> None:
    trusted = Trusted()
    held = _held(f"token {GITHUB}", trusted)
    assert not is_redacted(held)
    assert redact(held) == f"token {MARK}"
    with trusting(trusted):
        assert is_redacted(held)
    assert not is_redacted(held)


def test_past_its_budget_the_oldest_are_forgotten_and_scanned_again() -> None:
    trusted = Trusted(budget=100)
    first = _held("a" * 60 + "x", trusted)
    second = _held("b" * 60 + "y", trusted)
    assert not trusted.holds(first) and trusted.holds(second)
    too_big = "c" * 101
    assert trusted.keep(too_big) is too_big and not trusted.holds(too_big)
