"""``render.shown_args``: an argument the kind body shows is not printed again above it."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from render_samples import call_thread

from toolview.contract.thread import Thread
from toolview.render import html as html_surface
from toolview.render import markdown as markdown_surface
from toolview.render import text as text_surface

DIFF = (
    "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n"
    " def main():\n-    print('hi')\n+    print('hello')\n"
)
EDIT_ARGS = {"file_path": "src/app.py", "old_string": "    print('hi')",
             "new_string": "    print('hello')", "replace_all": True}  # fmt: skip


def edit_thread(args: dict[str, Any]) -> Thread:
    props = {"path": "src/app.py", "diff": DIFF}
    return call_thread(tool="Edit", args=args, text=DIFF, kind="diff", props=props)


def read_thread(args: dict[str, Any]) -> Thread:
    props = {"path": "src/app.py", "content": "def main():\n    pass\n"}
    return call_thread(tool="Read", args=args, text="x", kind="file", props=props)


def html_args(thread: Thread) -> str:
    """The args line of the html surface's one card ("" when it has none)."""
    page = html_surface.render_page(thread, title="t")
    found = re.search(r'<pre class="tv-args tv-json">(.*?)</pre>', page, re.S)
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else ""


def text_args(thread: Thread) -> str:
    return "\n".join(re.findall(r"args: .*", text_surface.render_thread(thread)))


def markdown_args(thread: Thread) -> str:
    return "\n".join(re.findall(r"args: .*", markdown_surface.render_thread(thread)))


SURFACES: list[Callable[[Thread], str]] = [html_args, text_args, markdown_args]


@pytest.mark.parametrize("args_of", SURFACES)
def test_an_edits_path_and_strings_are_shown_once(args_of: Callable[[Thread], str]) -> None:
    line = args_of(edit_thread(EDIT_ARGS))
    assert "replace_all" in line
    assert "src/app.py" not in line and "print" not in line and "old_string" not in line


@pytest.mark.parametrize("args_of", SURFACES)
def test_a_string_the_diff_does_not_show_stays(args_of: Callable[[Thread], str]) -> None:
    line = args_of(edit_thread(EDIT_ARGS | {"file_path": "other.py", "old_string": "gone()"}))
    assert "other.py" in line and "gone()" in line and "print" not in line


@pytest.mark.parametrize("args_of", SURFACES)
def test_a_reads_path_is_shown_once(args_of: Callable[[Thread], str]) -> None:
    line = args_of(read_thread({"file_path": "src/app.py", "offset": 40}))
    assert "offset" in line and "src/app.py" not in line
    assert "src/else.py" in args_of(read_thread({"file_path": "src/else.py"}))
