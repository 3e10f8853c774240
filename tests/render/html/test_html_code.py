"""Highlighted code on HTML is light: few elements, merged runs, numbers outside the text.

Counted with the stdlib parser on the real renderer's output, so the bound is
deterministic. The 100-line file is the head of ``contract/kinds.py`` (the
old markup drew it with 463 elements).
"""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from html_markup import parse

from toolview.render.highlight import diff_lexer, lexer_for
from toolview.render.html.kinds.code import code_html

HUNDRED = (Path(__file__).parents[1] / "data" / "hundred_lines.py.txt").read_text(encoding="utf-8")


class _Text(HTMLParser):
    """The text a browser would show (and copy), and each start tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _read(html: str) -> _Text:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser


def test_a_hundred_line_python_file_is_at_most_sixty_elements() -> None:
    html = code_html(HUNDRED, lexer_for(None, "kinds.py"))
    read = _read(html)
    assert len(read.tags) <= 60, len(read.tags)
    assert parse(html).problems() == []


def test_the_text_is_the_file_and_the_numbers_are_not_in_it() -> None:
    read = _read(code_html(HUNDRED, lexer_for("python", None), start_line=41))
    assert "".join(read.text) == HUNDRED.removesuffix("\n")
    pre = read.tags[0]
    assert pre == ("pre", {"class": "tv-code", "data-ln": "\n".join(map(str, range(41, 141)))})


def test_tokens_of_one_class_that_meet_share_one_span() -> None:
    comments = code_html("# one\n# two\n    # three\nx = 1\n", lexer_for("python", None))
    assert comments.count("<span") == 2  # the comment block, and 1
    assert '<span class="c"># one\n# two\n    # three</span>' in comments
    diff = code_html("@@ -1,2 +1,3 @@\n-a\n-b\n+c\n+d\n+e\n", diff_lexer())
    assert diff.count('class="gi"') == 1 and diff.count('class="gd"') == 1
    assert '<span class="gi">+c\n+d\n+e</span>' in diff


def test_plain_tokens_cost_no_element() -> None:
    html = code_html(
        "import os\nfor name in os.listdir():\n    print(name)\n", lexer_for("python", None)
    )
    assert "<span" not in html


def test_leading_blank_lines_keep_their_numbers() -> None:
    html = code_html("\n\nx = 'a'\n", lexer_for("python", None), start_line=5)
    read = _read(html)
    assert read.tags[0][1]["data-ln"] == "5\n6\n7"
    assert "".join(read.text) == "\n\nx = 'a'"


def test_a_text_without_a_final_newline_counts_its_last_line() -> None:
    for text in ("a\nb", "a\nb\n"):
        assert _read(code_html(text, lexer_for(None, "x.txt"))).tags[0][1]["data-ln"] == "1\n2"


def test_code_is_escaped_in_every_run() -> None:
    hostile = '"</code></pre><script>x()</script>" # <img src=x onerror=y()>\n'
    html = code_html(hostile, lexer_for("python", None))
    assert parse(html).problems() == []
    assert [tag for tag, _ in _read(html).tags] == ["pre", "code", "span", "span"]
    assert unescape("".join(_read(html).text)) == hostile.rstrip("\n")
