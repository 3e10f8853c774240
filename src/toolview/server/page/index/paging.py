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

__all__ = ["MAX_LIMIT", "NUMERIC", "SORTS", "ListingQuery", "listing_page"]

MAX_LIMIT: Final = 1000
NUMERIC: Final = frozenset({"spanMs", "calls", "failed", "tokens", "costUsd"})
SORTS: Final = frozenset(
    {"title", "agent", "models", "startedAt", "lastActivity", "status", *NUMERIC}
)
_FILTERS: Final = ("agent", "project", "status")
_PAGED_BY: Final = frozenset({"offset", "limit", "sort", "order", "since", *_FILTERS})

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


def listing_page(threads: Sequence[Thread], query: ListingQuery) -> dict[str, object]:
    """``threads`` (newest activity first) filtered, sorted and cut to ``query``'s page;
    ``total`` the filtered count, ``all`` the listing's."""
    kept = [thread for thread in threads if query.keeps(thread)]
    kept.sort(key=lambda thread: _sort_value(thread, query.sort), reverse=query.descending)
    return {
        "threads": kept[query.offset : query.offset + query.limit],
        "total": len(kept),
        "all": len(threads),
        "offset": query.offset,
        "limit": query.limit,
        **{
            plural: sorted({str(t.get(name) or "") for t in threads})
            for name, plural in zip(_FILTERS, ("agents", "projects", "statuses"), strict=True)
        },
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
