"""``safety.seen`` and ``safety.sequences``: the reader's view that redaction scans.

The view takes out exactly the sequences the terminal surface removes (one
definition, ``safety.sequences``), and the fast pattern for ASCII text takes
out what the general one does.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toolview.safety import neutralize_terminal
from toolview.safety.seen import reader_view
from toolview.safety.sequences import TAKEN_OUT, TAKEN_OUT_7BIT

from .test_colour_split import _SEQUENCE

_ASCII_SOUP = st.text(st.sampled_from("\x1b[]()P_^X;:0129am?Kq \\\x07\n"), max_size=60)


@given(_ASCII_SOUP)
def test_the_ascii_pattern_takes_out_what_the_general_one_does(text: str) -> None:
    assert TAKEN_OUT_7BIT.sub("", text) == TAKEN_OUT.sub("", text)


_PRINTABLE = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E) | st.just("\n"))


@given(st.lists(st.one_of(_PRINTABLE, _SEQUENCE), max_size=10).map("".join))
def test_what_redaction_scans_is_what_the_terminal_surface_shows(text: str) -> None:
    """Printable text and whole sequences: the reader's view is ``neutralize_terminal``'s."""
    view = reader_view(text)
    assert (view.text if view is not None else text) == neutralize_terminal(text)
