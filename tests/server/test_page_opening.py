"""The live page opens calls as the standalone page does: successes only in a short thread."""

from __future__ import annotations

import re

from starlette.testclient import TestClient
from test_thread_search import calls, post

from toolview.contract import ToolCall, ToolResult
from toolview.render.limits import DEFAULT_LIMITS


def details_tags(html: str) -> dict[str, str]:
    """call element id -> its <details> tag."""
    found = re.findall(r'<article class="tv-call" id="(tv-call-[^"]+)".*?(<details[^>]*>)', html)
    return dict(found)


def test_successes_open_in_a_short_thread_and_closed_past_the_limit(client: TestClient) -> None:
    short = DEFAULT_LIMITS.open_calls
    post(client, "short", calls(short))
    tags = details_tags(client.get("/threads/short").text)
    assert len(tags) == short and all(" open" in tag for tag in tags.values())

    post(client, "long", [*calls(short + 1), ToolCall("bad", "shell", {"command": "false"})])
    post(client, "long", [ToolResult("bad", "shell", "exit 1", complete=True, is_error=True)])
    tags = details_tags(client.get("/threads/long").text)
    assert " open" in tags["tv-call-bad"]  # a failure opens in any thread
    successes = [tag for element, tag in tags.items() if element != "tv-call-bad"]
    assert successes and not any(" open" in tag for tag in successes)
    # one call's fragment, fetched as the live script does, says the same
    fragment = details_tags(client.get("/api/threads/long/call", params={"id": "c3"}).text)
    assert list(fragment) == ["tv-call-c3"] and " open" not in fragment["tv-call-c3"]


def test_the_calls_headings_sit_under_a_level_two_heading(client: TestClient) -> None:
    post(client, "t", calls(2))
    page = client.get("/threads/t").text
    assert page.index("<h2") < page.index("<h3")
