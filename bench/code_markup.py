"""Light markup for highlighted code: elements per file on HTML, milliseconds on the terminal.

Run: ``.venv/bin/python bench/code_markup.py [rounds]``. The 100-line file is
tests/render/data/hundred_lines.py.txt (the head of ``contract/kinds.py``).
"Before" is the markup toolview drew until issue 13, rebuilt here from the
same libraries: Pygments' ``HtmlFormatter(linenos="inline")`` on HTML, Rich's
``Syntax(word_wrap=True)`` on the terminal. Prints

- HTML elements for the file before and after, parsed from the output, and
  the median and largest count over the first 100 lines of every module of
  ``src/toolview`` that long (and what it would be with keywords coloured
  too); and for a 100-line unified diff of the file;
- terminal milliseconds per file (medians of interleaved rounds, same run)
  and their ratio, which is what to compare across machines.

Not a test: timings vary by machine and load.
"""

from __future__ import annotations

import difflib
import io
import statistics
import sys
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from pygments import highlight  # type: ignore[import-untyped]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexers import get_lexer_for_filename  # type: ignore[import-untyped]
from pygments.token import Generic, Keyword, Operator  # type: ignore[import-untyped]
from rich.console import Console, Group
from rich.syntax import Syntax
from rich.text import Text

from toolview.contract import FileProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.highlight import lexer_for
from toolview.render.html.kinds.code import code_html, code_runs, diff_html
from toolview.render.limits import DEFAULT_LIMITS
from toolview.render.terminal.kinds.code import file_renderable
from toolview.render.terminal.styled import cut_text

ROOT = Path(__file__).parents[1]
FILE = (ROOT / "tests" / "render" / "data" / "hundred_lines.py.txt").read_text(encoding="utf-8")
PATH = "src/toolview/contract/kinds.py"


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count += 1


def elements(html: str) -> int:
    """Start tags in ``html``, as a browser would make elements of them."""
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser.count


def html_before(text: str, path: str) -> str:
    """The old ``code_html``: a span per token and per line number."""
    formatter = HtmlFormatter(cssclass="tv-code", linenos="inline", wrapcode=True)
    result: str = highlight(text, get_lexer_for_filename(path), formatter)
    return result


def html_after(text: str, path: str) -> str:
    return code_html(text, lexer_for(None, path))


def spans_with_keywords(text: str, path: str) -> int:
    """Spans if keywords were coloured too: their tokens given a class no Python token has."""
    keyword = Generic.Strong
    tokens = [
        (keyword if (t in Keyword and t not in Keyword.Constant) or t in Operator.Word else t, v)
        for t, v in lexer_for(None, path).get_tokens(text)
    ]
    return sum(1 for cls, _ in code_runs(tokens) if cls)


def hundred_line_diff() -> str:
    """A unified diff of about 100 lines: the file with every 6th line edited, hunks of context."""
    old = FILE.splitlines(keepends=True)
    new = [f"{line.rstrip()}  # edited\n" if i % 6 == 0 else line for i, line in enumerate(old)]
    lines = list(difflib.unified_diff(old, new, "a/kinds.py", "b/kinds.py", n=2))
    return "".join(lines[:100])


def _console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system="standard", force_terminal=True)


def terminal_before(props: FileProps) -> None:
    """The old ``file_renderable``: the same window and title, Rich's Syntax wrapping each line."""
    window = shown_text(props.content, DEFAULT_LIMITS)
    title = Text(f"{clean_field(props.path, 500)} ({props.language})", style="bold")
    syntax = Syntax(
        window.text.rstrip("\n"),
        str(props.language),
        theme="ansi_dark",
        line_numbers=True,
        word_wrap=True,
        background_color="default",
    )
    _console().print(Group(title, syntax, *cut_text(window.after, None)))


def terminal_after(props: FileProps) -> None:
    _console().print(file_renderable(props, DEFAULT_LIMITS))


def _medians(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """CPU milliseconds per call, each function timed in turn every round (load hits all alike)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            run()
            times[name].append((time.process_time() - start) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def _module_heads() -> list[tuple[str, str]]:
    heads = []
    for path in sorted((ROOT / "src" / "toolview").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if len(lines) >= 100:
            heads.append((str(path), "".join(lines[:100])))
    return heads


def main(rounds: int) -> None:
    before, after = elements(html_before(FILE, PATH)), elements(html_after(FILE, PATH))
    print(f"html elements, 100-line file: before {before}, after {after} (target <= 60)")
    heads = _module_heads()
    olds = [elements(html_before(text, path)) for path, text in heads]
    news = [elements(html_after(text, path)) for path, text in heads]
    keyed = [spans_with_keywords(text, path) + 2 for path, text in heads]
    print(
        f"html elements, first 100 lines of {len(heads)} modules if keywords were coloured too: "
        f"median {statistics.median(keyed):.0f}, largest {max(keyed)}"
    )
    print(
        f"html elements, first 100 lines of {len(heads)} modules: median "
        f"{statistics.median(olds):.0f} -> {statistics.median(news):.0f}, largest "
        f"{max(olds)} -> {max(news)}, <= 60 after: {sum(n <= 60 for n in news)}/{len(news)}"
    )
    diff = hundred_line_diff()
    before, after = elements(html_before(diff, "x.diff")), elements(html_after(diff, "x.diff"))
    numbered = elements(diff_html(diff))
    print(
        f"html elements, 100-line diff: before {before}, lexer runs {after}, "
        f"numbered with line backgrounds and changed words (diff_html) {numbered}"
    )
    props = FileProps(path=PATH, content=FILE, language="python", start_line=1)
    terminal_before(props), terminal_after(props)  # warm imports and caches alike
    lexer = lexer_for("python", None)
    ms = _medians(
        {
            "before": lambda: terminal_before(props),
            "after": lambda: terminal_after(props),
            "lex": lambda: list(lexer.get_tokens(FILE)),
        },
        rounds,
    )
    print(
        f"terminal, 100-line file: before {ms['before']:.2f} ms, after {ms['after']:.2f} ms, "
        f"ratio {ms['before'] / ms['after']:.1f}x (target after <= 3 ms)\n"
        f"  of which Pygments lexing alone: {ms['lex']:.2f} ms; the rest: before "
        f"{ms['before'] - ms['lex']:.2f} ms, after {ms['after'] - ms['lex']:.2f} ms, ratio "
        f"{(ms['before'] - ms['lex']) / max(ms['after'] - ms['lex'], 1e-3):.1f}x"
    )
    ms = _medians(
        {"before": lambda: html_before(FILE, PATH), "after": lambda: html_after(FILE, PATH)},
        rounds,
    )
    print(
        f"html, 100-line file: before {ms['before']:.2f} ms, after {ms['after']:.2f} ms, "
        f"ratio {ms['before'] / ms['after']:.1f}x"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
