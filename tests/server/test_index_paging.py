"""``GET /api/threads?offset=&limit=&…``: one page of the index, filtered and sorted on the
server as the index script does it, with the count it was cut from and the filters' choices."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_threads import ThreadedServer
from sse_client import SSEFrame, read_frames
from starlette.testclient import TestClient
from test_thread_search import post

from toolview.contract import Message, RunStarted, ToolCall
from toolview.server.page.index.paging import SORTS, ListingQuery, ListingViews, listing_page

AT = "2026-01-{:02d}T10:00:00.000Z"
LISTING: list[dict[str, object]] = [  # newest activity first, as the directory lists them
    {"id": f"t{n}", "agent": ("claude", "codex")[n % 2], "project": ("shop", "")[n % 3 == 0],
     "status": "done", "startedAt": AT.format(30 - n), "calls": n % 4,
     "costUsd": None if n == 5 else n / 10, "title": f"T{n}"}
    for n in range(12)
]  # fmt: skip


def ids(page: dict[str, object]) -> list[object]:
    threads = page["threads"]
    assert isinstance(threads, list)
    return [t["id"] for t in threads]


def test_a_page_is_cut_after_filters_and_says_what_it_was_cut_from() -> None:
    query = ListingQuery.of({"agent": "claude", "project": "shop", "offset": "1", "limit": "2"})
    assert query is not None
    page = listing_page(LISTING, query)
    kept = [t["id"] for t in LISTING if t["agent"] == "claude" and t["project"] == "shop"]
    assert ids(page) == kept[1:3] and page["total"] == len(kept) == 4
    assert (page["agents"], page["projects"]) == (["claude", "codex"], ["", "shop"])


def test_a_sort_is_numeric_with_a_missing_cost_lowest_and_ties_newest_first() -> None:
    query = ListingQuery.of({"sort": "costUsd", "order": "asc", "limit": "3"})
    assert query is not None
    assert ids(listing_page(LISTING, query)) == ["t5", "t0", "t1"]
    by_calls = ListingQuery.of({"sort": "calls"})
    assert by_calls is not None
    assert ids(listing_page(LISTING, by_calls))[:3] == ["t3", "t7", "t11"]  # 3 calls each


def test_since_keeps_sessions_started_on_or_after_the_day() -> None:
    query = ListingQuery.of({"since": "2026-01-27"})
    assert query is not None
    assert ids(listing_page(LISTING, query)) == ["t0", "t1", "t2", "t3"]


@pytest.mark.parametrize(
    "params", [{"sort": "id"}, {"order": "up"}, {"limit": "1001"}, {"offset": "-1"}]
)
def test_a_wrong_parameter_is_refused_by_name(params: dict[str, str]) -> None:
    with pytest.raises(ValueError, match=next(iter(params))):
        ListingQuery.of(params)


def test_the_api_serves_a_page_and_the_whole_listing_without_paging(client: TestClient) -> None:
    for n in range(5):
        cwd = "/home/ann/shop" if n % 2 else "/srv/api"
        at = AT.format(n + 1)
        post(client, f"claude-s{n}", [RunStarted("r", cwd=cwd, at=at), ToolCall(f"c{n}", "r", {})])
    post(client, "codex-x", [Message("user", "hi", at=AT.format(9))])
    page = client.get("/api/threads?project=shop&limit=1&offset=1").json()
    assert [t["id"] for t in page["threads"]] == ["claude-s1"]
    assert (page["total"], page["projects"]) == (2, ["", "api", "shop"])
    assert len(client.get("/api/threads").json()["threads"]) == 6
    refused = client.get("/api/threads?sort=nope")
    assert refused.status_code == 400 and "sort" in refused.text


def test_a_page_says_how_many_sessions_the_listing_has(client: TestClient) -> None:
    """``all``: what the index says it holds (``data-threads``) under any filter."""
    for thread in ("claude-a", "claude-b", "codex-c"):
        post(client, thread, [ToolCall("c", "r", {})])
    page = client.get("/api/threads?agent=codex&limit=1").json()
    assert (page["total"], page["all"]) == (1, 3)


def test_the_follow_signal_says_changed_not_the_listing(live_server: ThreadedServer) -> None:
    """``?signal``: a few bytes per change, never the listing (megabytes at 10,000 sessions)."""
    post_to = f"{live_server.url}/api/threads"
    httpx.post(post_to, json={"id": "claude-a"}).raise_for_status()

    def until(frames: list[SSEFrame]) -> bool:
        if len(frames) == 1:  # the listing as it is; then it changes
            httpx.post(post_to, json={"id": "codex-b"}).raise_for_status()
        return len(frames) == 2

    frames = read_frames(f"{post_to}/follow?signal", until=until)
    assert [frame.data for frame in frames] == [{"threads": 1}, {"threads": 2}]


QUERIES = st.builds(
    ListingQuery,
    offset=st.integers(0, 14),
    limit=st.integers(1, 5),
    sort=st.sampled_from(sorted(SORTS)),
    descending=st.booleans(),
    since=st.sampled_from(["", "2026-01-20"]),
    agent=st.sampled_from([None, "claude", "codex"]),
    project=st.sampled_from([None, "shop", ""]),
)


@given(queries=st.lists(QUERIES, min_size=1, max_size=8), changed=st.integers(0, 8))
def test_a_page_of_the_kept_views_is_the_page_made_afresh(
    queries: list[ListingQuery], changed: int
) -> None:
    """``ListingViews`` answers each query as ``listing_page`` does, also after the listing
    changed (a new list: a card grew) — never a view of the listing before."""
    views = ListingViews()
    listing = LISTING
    for n, query in enumerate(queries):
        if n == changed:
            listing = [{**t, "calls": 3 - int(str(t["calls"]))} for t in reversed(LISTING)]
        assert views.page(listing, query) == listing_page(listing, query)
