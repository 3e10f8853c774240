"""``kinds.markdown_plain``: prose drawn without the parser is what markdown-it and the
sanitizer make of it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.render.html.kinds.markdown import _PARSERS, markdown_html
from toolview.render.html.kinds.markdown_plain import plain_markdown_html
from toolview.safety import sanitize_html

_PIECES = [
    "a", "Word", "é", "ß", "1", "42", "1.", "2)", " ", "  ", "    ", "\n", "\n\n", " \n", "  \n",
    "\n  \n", ".", ",", ";", ":", "?", "'", '"', "(", ")", "/", "%", "$", "@", "{", "}", "^",
    "*", "_", "#", "-", "=", "`", "+", "# ", "- ", "+ ", "---", "===", "a-b", "#1", "!", "1)",
    "\t", "&", "<", ">", "[", "]", "!", "|", "~", "\\", "\u00a0",
]  # fmt: skip
_TEXT = st.lists(st.sampled_from(_PIECES) | st.text(max_size=2), max_size=40).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_TEXT, st.booleans())
def test_prose_is_drawn_as_markdown_it_draws_it(source: str, breaks: bool) -> None:
    drawn = plain_markdown_html(source, breaks=breaks)
    if drawn is not None:
        assert drawn == sanitize_html(_PARSERS[breaks].render(source))


@pytest.mark.parametrize("breaks", [False, True])
def test_a_chat_message_of_prose_skips_the_parser(breaks: bool) -> None:
    """Plain messages take the fast path (it must not decline everything), and the page's
    HTML for them is unchanged, sanitized as before."""
    source = 'I\'ll re-read the file (it is "big") first!  \n  Then: run it, #2 = +1?\n\n\nDone.\n'
    drawn = plain_markdown_html(source, breaks=breaks)
    assert drawn is not None and drawn.startswith("<p>I'll re-read the file")
    assert markdown_html(source, breaks=breaks) == sanitize_html(_PARSERS[breaks].render(source))


@pytest.mark.parametrize(
    "source",
    [
        "a <b>",
        "- item",
        "+ item",
        "# head",
        "a\n===",
        "a &amp; b",
        "a *b*",
        "1. item",
        "    code",
        "# head",
        "a\tb",
        "a & b",
        "x_y",
        "a\n---",
        "<b>",
        "a\rb",
    ],
)
def test_markdown_goes_to_the_parser(source: str) -> None:
    assert plain_markdown_html(source, breaks=False) is None
