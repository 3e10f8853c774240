"""The html surface's fast paths give what the slow ones gave: ``code_runs``, ``esc``."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given
from hypothesis import strategies as st
from pygments.token import Comment, Generic, Keyword, Name, String, Text  # type: ignore[import-untyped]

from toolview.render.html.kinds.code import code_runs
from toolview.render.html.markup import esc
from toolview.render.html.palette import code_class
from toolview.safety import escape_html

_TOKENS = [Comment, Comment.Single, String, String.Doc, Keyword, Name, Name.Function, Text]
_TOKENS += [Generic.Inserted, Generic.Deleted, Text.Whitespace]
_PARTS = ["", " ", "  ", "\n", " \n\t", "x", "def", "# c", "'s'", "+a\n", "\u3000"]


def _two_pass(tokens: Iterable[tuple[object, str]]) -> list[tuple[str | None, str]]:
    """The merge as first written: label each token, merge labels, then plain entries."""
    classes: list[str] = []
    parts: list[list[str]] = []
    for token, part in tokens:
        cls = code_class(token) or (" " if part.isspace() else "")  # type: ignore[arg-type]
        if classes and classes[-1] == cls:
            parts[-1].append(part)
        elif cls not in ("", " ") and classes[-2:] == [cls, " "]:
            classes.pop()
            spaces = parts.pop()
            parts[-1] += [*spaces, part]
        else:
            classes.append(cls)
            parts.append([part])
    runs: list[tuple[str | None, str]] = []
    for cls, chunk in zip(classes, parts, strict=True):
        text = "".join(chunk)
        if cls not in ("", " "):
            runs.append((cls, text))
        elif runs and runs[-1][0] is None:
            runs[-1] = (None, runs[-1][1] + text)
        else:
            runs.append((None, text))
    return runs


@given(st.lists(st.tuples(st.sampled_from(_TOKENS), st.sampled_from(_PARTS) | st.text(max_size=3))))
def test_one_pass_equals_two_pass(tokens: list[tuple[object, str]]) -> None:
    assert code_runs(tokens) == _two_pass(tokens)


@given(st.text() | st.text(st.sampled_from("<>&\"'ab \u202e\u200b\ufeff\x00é")))
def test_esc_equals_escape_html(text: str) -> None:
    assert esc(text) == escape_html(text)
