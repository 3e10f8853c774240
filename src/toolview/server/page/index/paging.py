"""One page of the index's listing, filtered and sorted on the server (``GET /api/threads?…``).

Why on the server: at 10,000 sessions the whole listing is megabytes of JSON
that the browser decodes, filters and sorts before it draws one page of 100
rows (1.16 s warm, issue 24's target is 1 s). Asked for a page, the server
answers with that page, the count it was cut from and the choices the
filters offer (every agent, project and status of the listing): what the
page draws, and no more. The rules are the index script's (``static/index.js``
``chosen``): the same filters (agent, project — ``""`` is "(no project)" —,
status, started on or after a day), the same sort keys; the order within a
key is newest activity first, as the full listing's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["MAX_LIMIT", "NUMERIC", "SORTS", "ListingQuery", "ListingViews", "listing_page"]

MAX_LIMIT: Final = 1000
NUMERIC: Final = frozenset({"spanMs", "calls", "failed", "tokens", "costUsd"})
SORTS: Final = frozenset(
    {"title", "agent", "models", "startedAt", "lastActivity", "status", *NUMERIC}
)
_FILTERS: Final = ("agent", "project", "status")
_PAGED_BY: Final = frozenset({"offset", "limit", "sort", "order", "since", *_FILTERS})
_VIEWS: Final = 32  # filter-and-sorts of one listing kept (each a list of references)

Thread = Mapping[str, object]


@dataclass(frozen=True)
class ListingQuery:
    """Which page of which sessions, in which order."""

    offset: int = 0
    limit: int = 100
    sort: str = "lastActivity"
    descending: bool = True
    since: str = ""  # a day (YYYY-MM-DD): sessions started on or after it
    agent: str | None = None
    project: str | None = None
    status: str | None = None

    @classmethod
    def of(cls, params: Mapping[str, str]) -> ListingQuery | None:
        """The query ``params`` ask for; ``None``: not paged (the whole listing, as before).

        ``ValueError`` names a parameter that is wrong.
        """
        if not _PAGED_BY & set(params):
            return None
        sort = params.get("sort", "lastActivity")
        if sort not in SORTS:
            raise ValueError(f"sort: one of {', '.join(sorted(SORTS))}")
        order = params.get("order", "desc")
        if order not in ("asc", "desc"):
            raise ValueError("order: asc or desc")
        return cls(
            offset=_count(params, "offset", 0, 10**9),
            limit=_count(params, "limit", 100, MAX_LIMIT),
            sort=sort,
            descending=order == "desc",
            since=params.get("since", "")[:10],
            **{name: params.get(name) for name in _FILTERS},
        )

    def keeps(self, thread: Thread) -> bool:
        """Whether ``thread`` passes every filter."""
        return all(
            wanted is None or str(thread.get(name) or "") == wanted
            for name, wanted in zip(_FILTERS, (self.agent, self.project, self.status), strict=True)
        ) and (not self.since or str(thread.get("startedAt"))[:10] >= self.since)

    @property
    def view(self) -> tuple[object, ...]:
        """What decides which sessions, in which order — everything but the page's place."""
        return (self.sort, self.descending, self.since, self.agent, self.project, self.status)


def listing_page(threads: Sequence[Thread], query: ListingQuery) -> dict[str, object]:
    """``threads`` (newest activity first) filtered, sorted and cut to ``query``'s page;
    ``total`` the filtered count, ``all`` the listing's."""
    return _cut(_kept(threads, query), query, len(threads), _choices(threads))


class ListingViews:
    """``listing_page`` with each view of one listing made once: a page is then a slice.

    Why: the index asks for a page on every change and every click; filtering
    and sorting 10,000 threads (and gathering the filters' choices) each time
    costs O(threads). The listing is the same list object until a card
    changes (``Directory.listing``), so its identity keys the views.
    """

    def __init__(self) -> None:
        self._of: Sequence[Thread] | None = None
        self._choices: dict[str, list[str]] = {}
        self._views: dict[tuple[object, ...], list[Thread]] = {}

    def page(self, threads: Sequence[Thread], query: ListingQuery) -> dict[str, object]:
        """What ``listing_page(threads, query)`` answers."""
        if threads is not self._of:
            self._of, self._choices, self._views = threads, _choices(threads), {}
        kept = self._views.get(query.view)
        if kept is None:
            if len(self._views) >= _VIEWS:
                self._views.clear()
            kept = self._views[query.view] = _kept(threads, query)
        return _cut(kept, query, len(threads), self._choices)


def _kept(threads: Sequence[Thread], query: ListingQuery) -> list[Thread]:
    kept = [thread for thread in threads if query.keeps(thread)]
    kept.sort(key=lambda thread: _sort_value(thread, query.sort), reverse=query.descending)
    return kept


def _choices(threads: Sequence[Thread]) -> dict[str, list[str]]:
    """Every agent, project and status of the listing: the filters' choices."""
    return {
        plural: sorted({str(t.get(name) or "") for t in threads})
        for name, plural in zip(_FILTERS, ("agents", "projects", "statuses"), strict=True)
    }


def _cut(
    kept: list[Thread], query: ListingQuery, count: int, choices: dict[str, list[str]]
) -> dict[str, object]:
    return {
        "threads": kept[query.offset : query.offset + query.limit],
        "total": len(kept),
        "all": count,
        "offset": query.offset,
        "limit": query.limit,
        **choices,
    }


def _sort_value(thread: Thread, key: str) -> float | str:
    """As the script sorts: a number (a missing cost or span lowest), or words in lower case.

    Python's sort is stable, so equal values keep the listing's newest-first order.
    """
    value = thread.get(key)
    if key in NUMERIC:
        return float(value) if isinstance(value, int | float) else -1.0
    if key == "models":
        value = ", ".join(map(str, value)) if isinstance(value, list) else ""
    return "" if value is None else str(value).lower()


def _count(params: Mapping[str, str], name: str, default: int, high: int) -> int:
    raw = params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) > high:
        raise ValueError(f"{name}: a whole number from 0 to {high}")
    return int(raw)
