"""A thread's standalone page split into pages of N calls, so a 5,000-call thread opens fast.

``NAME.html`` is the index: the run's summary, a link to every page, and the
first page's calls; ``NAME-2.html``, ``NAME-3.html``… hold the next calls, each
page linking to the index and to its neighbours. Each page is the standalone
page (same head, policy, filters), its calls drawn as the whole page would
draw them: successes collapsed when the thread has more than
``Limits.open_calls`` calls (``opening``).

Memory stays bounded like a stream's: the first page is held until the end
(the index needs the summary and the page count), each later page until the
next one starts (so it knows it has a next), and — while the thread's length
cannot yet decide ``opening.PENDING`` — at most ``open_calls`` calls more.
``save(name, text)`` writes a file; this module does no I/O of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import quote

from toolview.render.html.document import page_head, page_tail
from toolview.render.html.layout import stream_shape
from toolview.render.html.markup import esc
from toolview.render.html.opening import CLOSED, OPEN, PENDING, successes_open
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.registry import Registry
from toolview.render.stream import StreamShape
from toolview.render.threadwalk import ThreadParts

__all__ = ["Pager", "page_name"]

Piece = tuple[str, str]  # ("call" | "entry" | "summary", markup)
_THREAD_OPEN: Final = '<div class="tv-thread">'
_CURRENT: Final = ' aria-current="page"'


def page_name(name: str, number: int) -> str:
    """``NAME.html`` for the first page (the index), ``NAME-<n>.html`` for the others."""
    return f"{name}.html" if number == 1 else f"{name}-{number}.html"


@dataclass
class _Page:
    number: int
    pieces: list[str] = field(default_factory=list)
    calls: int = 0
    first: int = 0  # the thread's number of its first call (1-based)


class Pager:
    """Takes a stream's parts (``shape``) and saves the pages; ``close`` after the stream's."""

    def __init__(
        self,
        name: str,
        title: str,
        size: int,
        save: Callable[[str, str], None],
        registry: Registry[str],
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        if size < 1:
            raise ValueError("a page holds at least one call")
        self._name, self._title, self._size, self._save = name, title, size, save
        self._limits = limits
        self._inner = stream_shape(registry, limits).parts
        self._pages = [_Page(1, first=1)]
        self._waiting: list[_Page] = []  # finished pages not saved yet (the decision pending)
        self._calls = 0
        self._summary = ""
        self._decided: str | None = None

    def shape(self) -> StreamShape[Piece]:
        """The shape a ``ThreadStream`` draws with: it hands each part here, writes nothing."""
        inner = self._inner
        parts = ThreadParts(
            call=lambda view, entry: ("call", inner.call(view, entry)),
            message=lambda entry: ("entry", inner.message(entry)),
            note=lambda entry: ("entry", inner.note(entry)),
            summary=lambda summary: ("summary", inner.summary(summary)),
        )
        return StreamShape(parts, show=self._take)

    def _take(self, piece: Piece) -> str:
        role, markup = piece
        if role == "summary":
            self._summary = markup
            return ""
        page = self._pages[-1]
        if role == "call":
            if page.calls == self._size:
                page = self._turn()
            page.calls += 1
            self._calls += 1
            if self._decided is None and not successes_open(self._calls, self._limits):
                self._decide(CLOSED)
        page.pieces.append(markup)
        return ""

    def _turn(self) -> _Page:
        """A new page: the one before it (not the first) now knows it has a next."""
        done = self._pages[-1]
        page = _Page(done.number + 1, first=self._calls + 1)
        self._pages.append(page)
        if done.number > 1:
            self._finish(done, last=False)
        return page

    def _finish(self, page: _Page, *, last: bool) -> None:
        if self._decided is None:
            self._waiting.append(page)
            return
        self._save(page_name(self._name, page.number), self._document(page, last=last))
        page.pieces = []

    def _decide(self, tag: str) -> None:
        self._decided = tag
        waiting, self._waiting = self._waiting, []
        for page in waiting:
            self._finish(page, last=False)

    def close(self) -> None:
        """The end of input: save the last page, then the index (summary, links, first page)."""
        if self._decided is None:
            self._decide(OPEN)
        last = self._pages[-1]
        if last.number > 1:
            self._finish(last, last=True)
        first = self._pages[0]
        self._save(page_name(self._name, 1), self._document(first, last=len(self._pages) == 1))

    def _document(self, page: _Page, *, last: bool) -> str:
        """A page as a standalone document: its links, its calls, the summary on the index."""
        tag = self._decided or OPEN
        body = "\n".join(piece.replace(PENDING, tag) for piece in page.pieces)
        title = self._title if page.number == 1 else f"{self._title} · page {page.number}"
        head = page_head(title) + self._nav(page, last=last)
        summary = f'<div class="tv-thread">{self._summary}</div>\n' if page.number == 1 else ""
        return f"{head}{summary}{_THREAD_OPEN}{body}</div>\n{self._nav(page, last=last)}" + (
            page_tail()
        )

    def _nav(self, page: _Page, *, last: bool) -> str:
        """Links: on the index, to every page (with its calls); elsewhere, index and neighbours."""
        links: list[tuple[int, str]] = []
        if page.number == 1:
            pages = self._pages
            for shown in pages:
                end = shown.first + shown.calls - 1
                links.append((shown.number, f"Page {shown.number}: calls {shown.first}–{end}"))
        else:
            links.append((1, "Index (summary, all pages)"))
            links.append((page.number - 1, "← Previous page"))
        if not last:
            links.append((page.number + 1, "Next page →"))
        items = "".join(
            f'<li><a class="tv-page-link" href="{esc(quote(page_name(self._name, number)))}"'
            f"{_CURRENT if number == page.number else ''}>{esc(text)}</a></li>"
            for number, text in links
        )
        return f'<nav aria-label="Pages"><ul class="tv-pages">{items}</ul></nav>\n'
