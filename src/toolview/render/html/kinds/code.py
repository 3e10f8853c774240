"""The ``file`` and ``diff`` kinds in HTML: light highlighting, line numbers as one gutter.

A highlighted file costs few elements (docs/performance.md, "Light markup"):
tokens are drawn with the palette's few classes (``palette.code_class``), a
token of any other type is plain text with no element, and tokens of one
class that meet — across plain whitespace, so a block of comment lines —
share one ``<span>``. A diff (``diff_html``) is read by ``render.diffview``:
each added or removed line is one block on its background, a changed word a
``<span>`` inside it, a context line plain text, and the old and new numbers
share the one gutter. The line numbers are no
element at all: the ``<pre>`` carries them in ``data-ln`` and the stylesheet
draws them beside the code (``::before``), where a selection never reaches —
copying the code copies no number, and the page's text holds none. Code does
not wrap (a long line scrolls), so each number stays beside its line.

Classes only, never a ``style`` attribute: the page's Content-Security-Policy
allows its one stylesheet by hash. The text reaching the lexer is already
cleaned (``shown_text``), and every run is escaped here.
"""

from __future__ import annotations

from collections.abc import Iterable

from pygments.lexer import Lexer  # type: ignore[import-untyped]

from toolview.contract import DiffProps, FileProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.diffview import DiffLine, diff_lines
from toolview.render.highlight import lexer_for
from toolview.render.html.markup import cut_html, esc
from toolview.render.html.palette import code_class
from toolview.render.html.style import CODE_CLASS
from toolview.render.regexlex import tokens
from toolview.render.view import KindBody

__all__ = ["code_html", "code_runs", "diff_html", "render_diff", "render_file"]

_PATH_CHARS = 500


def code_html(text: str, lexer: Lexer, start_line: int = 1) -> str:
    """Highlighted, escaped ``text`` with line numbers from ``start_line`` in ``data-ln``."""
    runs = code_runs(tokens(lexer, text))
    body = "".join(
        esc(part) if cls is None else f'<span class="{cls}">{esc(part)}</span>'
        for cls, part in runs
    )
    lines = sum(part.count("\n") for _, part in runs)
    if body.endswith("\n"):  # the lexer ends every text with one; the last line is not blank
        body = body[:-1]
    else:
        lines += 1
    numbers = "\n".join(str(n) for n in range(start_line, start_line + max(lines, 1)))
    return f'<pre class="{CODE_CLASS}" data-ln="{numbers}"><code>{body}</code></pre>'


def code_runs(tokens: Iterable[tuple[object, str]]) -> list[tuple[str | None, str]]:
    """Pygments ``tokens`` as runs of one class (None: plain text), merged where they meet.

    One pass: plain whitespace right after a classed run is held, and joins
    that run if the next token has its class, else starts the plain run.
    """
    runs: list[tuple[str | None, list[str]]] = []
    held: list[str] = []  # whitespace after the last (classed) run
    for token, part in tokens:
        cls = _class_of(token)
        last = runs[-1] if runs else None
        if cls is None:
            if last is not None and last[0] is not None and part.isspace():
                held.append(part)
            elif last is not None and last[0] is None:
                last[1].append(part)
            else:
                runs.append((None, [*held, part]))
                held = []
        elif last is not None and last[0] == cls:
            last[1].extend(held)
            last[1].append(part)
            held = []
        else:
            if held:
                runs.append((None, held))
                held = []
            runs.append((cls, [part]))
    if held:
        runs.append((None, held))
    return [(cls, "".join(parts)) for cls, parts in runs]


_CLASSES: dict[object, str | None] = {}


def _class_of(token: object) -> str | None:
    """``code_class``, looked up in a plain dict (a token type is a tuple: hashing it walks it)."""
    try:
        return _CLASSES[token]
    except KeyError:
        cls = _CLASSES[token] = code_class(token)
        return cls


def _title(path: str | None, language: str | None) -> str:
    if not path:
        return ""
    suffix = f' <span class="tv-meta">{esc(clean_field(language, 40))}</span>' if language else ""
    return f'<div class="tv-command">{esc(clean_field(path, _PATH_CHARS))}{suffix}</div>'


def render_file(body: KindBody) -> str:
    """The file's first lines, numbered from ``startLine``, highlighted."""
    props: FileProps = body.props
    language = props.language if isinstance(props.language, str) else None
    start = props.start_line if isinstance(props.start_line, int) else 1
    window = shown_text(props.content, body.limits)
    if not props.content:
        code = '<p class="tv-empty">(empty file)</p>'
    else:
        code = code_html(window.text, lexer_for(language, props.path), start)
    return _title(props.path, language) + code + cut_html(window.after, "below", body.truncated)


def render_diff(body: KindBody) -> str:
    """The diff's first lines, numbered, added and removed lines and changed words marked."""
    props: DiffProps = body.props
    path = props.path if isinstance(props.path, str) else None
    window = shown_text(props.diff, body.limits)
    code = diff_html(window.text) if props.diff else '<p class="tv-empty">(empty diff)</p>'
    return _title(path, None) + code + cut_html(window.after, "below", body.truncated)


_DIFF_CLASS = {"add": "gi", "del": "gd", "hunk": "gu", "file": "gh", "note": "c"}


def diff_html(text: str) -> str:
    """A unified diff as one ``<pre>``: the old and new numbers in its gutter (``data-ln``),
    each added or removed line a block of its class (its background), changed words marked.

    A context line is plain text and costs no element.
    """
    lines = diff_lines(text)
    width = len(str(max((n for line in lines for n in (line.old, line.new) if n), default=1)))
    numbers = "\n".join(f"{_number(line.old, width)} {_number(line.new, width)}" for line in lines)
    body = "".join(
        _diff_line(line, last=index == len(lines) - 1) for index, line in enumerate(lines)
    )
    return f'<pre class="{CODE_CLASS} tv-diff" data-ln="{numbers}"><code>{body}</code></pre>'


def _number(number: int | None, width: int) -> str:
    return (str(number) if number else "").rjust(width)


def _diff_line(line: DiffLine, *, last: bool) -> str:
    """A context line as text, any other in its class; its newline inside it (a newline
    between two blocks would be a blank line of its own), none after the last."""
    end = "" if last else "\n"
    if line.kind == "context":
        return esc(line.text) + end
    if line.parts:
        text = esc(line.text[0]) + "".join(
            f'<span class="tv-dw">{esc(part)}</span>' if changed else esc(part)
            for changed, part in line.parts
        )
    else:
        text = esc(line.text)
    return f'<span class="{_DIFF_CLASS[line.kind]}">{text}{end}</span>'
