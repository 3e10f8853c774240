"""A short field is cleaned once per distinct value, and that answer is the cleaning's own.

``render.clean.clean_field`` keeps the answer for fields of up to 64 characters
(a tool's name and its kind are drawn on every call). These tests hold that the
kept answer is exactly what cleaning gives — secrets still redacted, controls and
breaks still shown — however often and in whatever order the field is asked for.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolview.render.clean as clean_module
from corpora.secrets import SECRETS
from toolview.render import clean_field
from toolview.render.limits import Omission
from toolview.safety import clean_text

_SHORT = [text for text, secret in SECRETS.values() if len(text) <= 64]


def _uncached(text: str, max_chars: int, breaks: clean_module.Breaks) -> str:
    """What ``clean_field`` said before it kept answers (its body, written out again)."""
    cleaned = clean_module.one_line_field(
        clean_text(text[: max_chars + clean_module.REDACTION_MARGIN]), breaks
    )
    if len(text) <= max_chars:
        return cleaned
    return f"{cleaned[:max_chars]} {Omission(len(text) - max_chars, 'chars')}"


def test_a_tool_name_drawn_on_every_call_is_cleaned_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Base cleaned ``Bash`` again for each of the 500 calls (500 cleanings)."""
    seen: list[str] = []

    def counted(text: str) -> str:
        seen.append(text)
        return clean_text(text)  # the real cleaning, counted

    monkeypatch.setattr(clean_module, "clean_text", counted)
    name = "Bash-memo-check"  # a value no other test has asked for
    shown = {clean_field(name, 200) for _ in range(500)}
    assert shown == {name}
    assert seen.count(name) <= 1


@pytest.mark.parametrize("text", _SHORT)
def test_a_short_secret_is_redacted_every_time_it_is_asked_for(text: str) -> None:
    secret = next(s for t, s in SECRETS.values() if t == text)
    for _ in range(3):
        assert secret not in clean_field(text, 200)


_FIELD = st.lists(
    st.sampled_from(["a", "Z", "0", " ", "_", "\n", "\r", "\x1b", "[", "2J", "\u202e",
                              "\u2028", "\u200b", "é", "😀", "ghp_", "AKIA", "=", ":"]),
    max_size=24,
).map("".join)  # fmt: skip


@given(_FIELD, st.integers(min_value=0, max_value=80), st.sampled_from(["show", "space"]))
def test_a_kept_answer_is_the_cleaning_s_own(text: str, max_chars: int, breaks: str) -> None:
    mode: clean_module.Breaks = "space" if breaks == "space" else "show"
    want = _uncached(text, max_chars, mode)
    assert clean_field(text, max_chars, mode) == want
    assert clean_field(text, max_chars, mode) == want  # asked again: the kept answer
