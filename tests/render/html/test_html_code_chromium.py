"""Highlighted code in real Chromium: the numbers sit beside their lines and are never copied.

The page is the standalone document under its CSP, opened from a file as a
user would. Line tops are read with a ``Range`` on each line's first
character; the gutter (``.tv-code::before``) must have the same line height
and exactly one line per code line, so number *n* is beside line *n* — with a
line far wider than the page in the middle (it scrolls, it does not wrap).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolview.contract import Descriptor, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.render.html import render_page

pytestmark = pytest.mark.browser

_MEASURE = """() => {
  const pre = document.querySelector('pre.tv-code');
  const code = pre.querySelector('code');
  const gutter = getComputedStyle(pre, '::before');
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const tops = [];
  let atStart = true;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      if (atStart) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(range.getBoundingClientRect().top);
      }
      atStart = node.data[i] === '\\n';
    }
  }
  const selection = getSelection();
  selection.removeAllRanges();
  const all = document.createRange();
  all.selectNodeContents(document.querySelector('article'));
  selection.addRange(all);
  return {
    tops, lineHeight: parseFloat(getComputedStyle(code).lineHeight),
    gutterLineHeight: parseFloat(gutter.lineHeight), gutterHeight: parseFloat(gutter.height),
    gutterWidth: parseFloat(gutter.width), copied: selection.toString(),
    articleText: document.querySelector('article').textContent,
    codeScroll: code.scrollWidth - code.clientWidth,
    pageScroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
}"""


def _page(content: str, start: int) -> str:
    props = {"path": "a.py", "content": content, "startLine": start}
    thread = Thread.from_observations(
        [
            ToolCall("c", "read", {}),
            ToolResult("c", "read", content, True, False, Descriptor("file", props)),
        ]
    )
    return render_page(thread, title="code")


def _measure(browser: Any, tmp_path: Path, html: str) -> tuple[dict[str, Any], list[str]]:
    context = browser.new_context(viewport={"width": 700, "height": 800})
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    path = tmp_path / "code.html"
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri(), wait_until="load")
    measured: dict[str, Any] = page.evaluate(_MEASURE)
    context.close()
    return measured, console


def test_numbers_stay_beside_their_lines_and_are_not_copied(browser: Any, tmp_path: Path) -> None:
    lines = [f"def f{i}(x):  # note {i}\n    return x + {i}\n" for i in range(20)]
    lines[3] = "LONG = '" + "word " * 150 + "'\n"
    content = "".join(lines)
    m, console = _measure(browser, tmp_path, _page(content, start=998))
    count = content.count("\n")
    assert len(m["tops"]) == count
    pitch = (m["tops"][-1] - m["tops"][0]) / (count - 1)
    assert abs(pitch - m["lineHeight"]) < 0.1, "a line wrapped or the code's lines are uneven"
    assert all(abs(b - a - pitch) < 0.1 for a, b in zip(m["tops"], m["tops"][1:], strict=False))
    assert m["gutterLineHeight"] == m["lineHeight"]
    assert abs(m["gutterHeight"] - count * pitch) < 1, "the gutter is not one line per code line"
    assert m["gutterWidth"] > 20, "the numbers (up to 1036) are drawn"
    assert m["codeScroll"] > 500 and m["pageScroll"] == 0, "the long line scrolls inside the code"
    for text in (m["copied"], m["articleText"]):
        assert content.rstrip("\n") in text
        assert "998" not in text and "1017" not in text, "a line number is in the copied text"
    assert [line for line in console if "Content Security Policy" in line] == []
