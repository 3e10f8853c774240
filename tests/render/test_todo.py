"""The ``todo`` kind on every surface: counts, bounded rows, words beside every glyph."""

from __future__ import annotations

from typing import Any

import pytest
from render_samples import TODO, call_thread

from toolview.contract import TodoProps, validate_props
from toolview.render import markdown, terminal, text
from toolview.render.html import render_thread_html
from toolview.render.limits import Limits
from toolview.render.todo import TODO_MARKS, todo_view

SURFACES: dict[str, Any] = {
    "text": lambda t, limits: text.render_thread(t, limits=limits),
    "terminal": lambda t, limits: terminal.render_thread(t, width=80, limits=limits),
    "markdown": lambda t, limits: markdown.render_thread(t, limits=limits),
    "html": lambda t, limits: render_thread_html(t, limits=limits),
}


def _plan(count: int, status: str = "pending") -> dict[str, Any]:
    return {"items": [{"content": f"step {n}", "status": status} for n in range(count)]}


def test_counts_say_done_of_all_and_the_rest_by_status() -> None:
    view = todo_view(validate_props("todo", TODO), Limits())
    assert view.counts == "1/5 done · 2 in progress · 1 cancelled"
    assert [row.text for row in view.rows][1] == "Writing tests"  # active form while in progress
    assert todo_view(TodoProps(items=[]), Limits()).counts == "no items"


def test_every_status_has_a_distinct_glyph_ascii_form_and_words() -> None:
    assert len({mark.glyph for mark in TODO_MARKS.values()}) == 4
    assert len({mark.ascii for mark in TODO_MARKS.values()}) == 4
    assert all(mark.ascii.isascii() and mark.label for mark in TODO_MARKS.values())


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_rows_are_bounded_by_max_rows_and_the_rest_counted(surface: str) -> None:
    thread = call_thread(tool="TodoWrite", text="plan", kind="todo", props=_plan(60))
    rendered = SURFACES[surface](thread, Limits(max_rows=5))
    assert "step 4" in rendered
    assert "step 5" not in rendered
    assert "55 more items" in rendered
    assert "0/60 done" in rendered


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_item_text_is_redacted_and_cleaned_on_every_surface(surface: str) -> None:
    thread = call_thread(tool="TodoWrite", text="plan", kind="todo", props=TODO)
    rendered = SURFACES[surface](thread, Limits())
    assert "ghp_0123456789" not in rendered
    assert "\u202e" not in rendered
    assert "\nfake" not in rendered and "\n- [x] fake" not in rendered


def test_text_surface_is_ascii_marked_and_says_what_a_mark_cannot() -> None:
    thread = call_thread(tool="TodoWrite", text="plan", kind="todo", props=TODO)
    rendered = text.render_thread(thread)
    assert "  [~] Writing tests (in progress)" in rendered
    assert "  [x] Read the *spec* <b>now</b>" in rendered
    assert "(cancelled)" in rendered


def test_html_is_a_list_with_each_status_in_words_not_colour() -> None:
    thread = call_thread(tool="TodoWrite", text="plan", kind="todo", props=TODO)
    html = render_thread_html(thread)
    assert html.count('<li class="tv-todo-item"') == 5
    for label in ("Completed", "In progress", "Pending", "Cancelled"):
        assert f'role="img" aria-label="{label}"' in html
    assert "<s>Call with [redacted: github-token]" in html
    assert "&lt;b&gt;now&lt;/b&gt;" in html and "<b>now" not in html


def test_markdown_is_a_task_list_whose_items_cannot_break_out() -> None:
    thread = call_thread(tool="TodoWrite", text="plan", kind="todo", props=TODO)
    rendered = markdown.render_thread(thread)
    assert "- [x] Read the \\*spec\\* &lt;b&gt;now&lt;/b&gt;" in rendered
    assert "- [ ] ~~Call with" in rendered
    assert "\n- [x] fake" not in rendered
