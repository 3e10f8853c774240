"""The fast paths (``safety.inert``, ``safety.ansi_fast``) give what the parsers give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.safety import ansi, terminal
from toolview.safety.ansi_fast import colours_only
from toolview.safety.inert import inert

_PIECES = [
    "a", "Z", "0", " ", "\t", "\n", "\r", "\r\n", "\b", "\x1b", "\x1b[31m", "\x1b[0m", "\x1b[K",
    "\x1b]0;t\x07", "\x1bP", "\x9b", "\x9d", "\x85", "\x7f", "\x00", "\u2028", "\u2029",
    "\u202e", "\u200b", "\ufeff", "é", "☃", "\U000e0041", "\ud800", "ghp_", "[", "m", ";",
]  # fmt: skip
_LONG = "\x1b[" + "1;" * 200 + "31m"  # over MAX_SGR_PARAMS: dropped unread
_COLOURED = st.lists(
    st.sampled_from(
        ["\x1b[31m", "\x1b[0m", "\x1b[1;32m", "\x1b[m", "\x1b[38;5;9m", "\x1b[7m", _LONG]
    )
    | st.sampled_from(["a", "bc", " ", "\t", "\n", "\n\n", "é", "\x1b[1 m", "\x1b[", "\r"]),
    max_size=40,
).map("".join)
_TEXT = st.lists(st.sampled_from(_PIECES) | st.text(max_size=4), max_size=40).map("".join)
_PRINTABLE = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Zl", "Zp"))
    | st.just("\n")
    | st.just("\t")
)


@settings(max_examples=400)
@given(text=_TEXT | _PRINTABLE)
def test_neutralize_fast_path_equals_the_scan(text: str) -> None:
    assert terminal.neutralize_terminal(text) == terminal._SEQUENCE.sub(terminal._replace, text)


@settings(max_examples=1500)
@given(text=_TEXT | _PRINTABLE | _COLOURED, overwrite=st.booleans(), growing=st.booleans())
def test_parse_fast_path_equals_the_scan(text: str, overwrite: bool, growing: bool) -> None:
    growing = growing and not overwrite  # parse_growing never overwrites
    assert ansi._parse(text, overwrite, growing) == ansi._scan(text, overwrite, growing)


def test_inert_is_exactly_nothing_to_act_on() -> None:
    assert inert("plain text\n\twith tabs\n") and inert("") and inert("héllo ☃\n")
    for char in ("\r", "\x1b", "\x00", "\x7f", "\x85", "\x9b", "\u202e", "\u2028", "\ud800"):
        assert not inert(f"ab{char}cd"), repr(char)


def test_coloured_lines_take_the_fast_path() -> None:
    text = "\x1b[1m== run ==\x1b[0m\ntest_a \x1b[32mPASSED\x1b[0m\x1b[32m!\x1b[0m [ 50%]\n"
    fast = colours_only(text, ansi.MAX_SGR_PARAMS)
    assert fast is not None and fast == ansi._scan(text, True, False)[0]
    assert [(run.start, run.end) for run in fast.runs] == [(0, 9), (17, 24)]
    assert colours_only("50%\r100%\n\x1b[31mx", ansi.MAX_SGR_PARAMS) is None
