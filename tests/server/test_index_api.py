"""The index's data (``/api/threads``), the search across threads (``/api/search``): both logs."""

from __future__ import annotations

from starlette.testclient import TestClient
from test_thread_search import GITHUB, post

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolResult
from toolview.safety.opaque import opaque_id


def test_the_listing_is_newest_first_with_title_times_and_counts(client: TestClient) -> None:
    at = "2026-01-0{}T10:00:00.000Z"
    post(
        client,
        "older",
        [
            Message("user", f"fix the build\nplease {GITHUB}", at=at.format(1)),
            ToolCall("c1", "shell", {"command": "make"}, at=at.format(1)),
            ToolResult("c1", "shell", "error", complete=True, is_error=True, at=at.format(2)),
            ToolCall("c2", "shell", {"command": "make"}, at=at.format(3)),
        ],
    )
    post(client, "newer", [RunStarted("r"), ToolCall("d1", "read", {}, at=at.format(5))])
    listed = client.get("/api/threads").json()["threads"]
    assert [t["id"] for t in listed] == ["newer", "older"]
    older = listed[1]
    assert older["title"] == "fix the build please [redacted: github-token]"  # one line
    assert (older["startedAt"], older["lastActivity"]) == (at.format(1), at.format(3))
    assert (older["calls"], older["running"], older["failed"]) == (2, 1, 1)
    assert older["lastSeq"] == 4 and isinstance(older["created"], float)
    assert listed[0]["title"] == "newer"  # no user message: the id
    post(client, "newer", [RunEnded("r", "completed", at=at.format(6))])
    newer = client.get("/api/threads").json()["threads"][0]
    assert (newer["running"], newer["lastActivity"]) == (0, at.format(6))


def test_the_index_page_lists_threads_as_a_table_of_times(client: TestClient) -> None:
    post(client, "one", [Message("user", "<b>hello</b>", at="2026-01-01T10:00:00.000Z")])
    page = client.get("/").text
    assert '<a href="/threads/one">&lt;b&gt;hello&lt;/b&gt;</a>' in page
    assert '<time datetime="2026-01-01T10:00:00.000Z"' in page
    assert '<script src="/static/index.js" defer></script>' in page


def test_search_across_threads_or_why_not(client: TestClient, open_log: object) -> None:
    post(client, "a", [ToolCall(f"k-{GITHUB}", "shell", {"command": "deploy zebra"})])
    post(client, "b", [Message("assistant", "no zebra here, only a lion")])
    answer = client.get("/api/search", params={"q": "zebra"}).json()
    assert answer["supported"] is True  # on Redis too: the index each process keeps
    assert answer["index"] in {"fts5", "process"}
    results = answer["results"]
    assert {r["threadId"] for r in results} == {"a", "b"}
    call = next(r for r in results if r["threadId"] == "a")
    assert call["toolCallId"] == opaque_id(f"k-{GITHUB}")
    assert GITHUB[4:] not in str(answer)
    assert client.get("/api/search", params={"q": GITHUB}).json()["results"] == []
    assert client.get("/api/search").status_code == 400
