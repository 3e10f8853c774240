"""The page header's counts line in real Chromium: the session's counts, kept current live.

It says what ``contract.counts`` says of the whole thread (its sub-agents'
calls included), the words the index says, and follows the thread as calls
and sub-agents' calls arrive, with no reload.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import ToolviewServer

from toolview.contract import Observation, Thread, ToolCall, ToolResult
from toolview.contract.counts import counts_text
from toolview.remote.client import Publisher

pytestmark = pytest.mark.browser


def in_agent(*observations: Any) -> list[Observation]:
    """``observations`` of the sub-agent the ``agent`` call ran."""
    return [msgspec.structs.replace(o, parent_call_id="agent") for o in observations]


FIRST: list[Observation] = [ToolCall("agent", "Agent", {"prompt": "look"})]
LATER: list[Observation] = [
    *in_agent(
        ToolCall("s1", "Bash", {"command": "ls"}),
        ToolResult("s1", "Bash", "no such file", True, True),
        ToolCall("s2", "Read", {}),
        ToolResult("s2", "Read", "ok", True, False),
    ),
    ToolResult("agent", "Agent", "found", True, False),
    ToolCall("own", "Read", {}),
    ToolResult("own", "Read", "EACCES", True, True),
]


def test_the_header_says_the_session_s_counts_and_follows_them_live(
    served: Callable[..., ToolviewServer], tmp_path: Path
) -> None:
    server = served("--db", str(tmp_path / "log.db"))
    first = counts_text(Thread.from_observations(FIRST).counts())
    whole = counts_text(Thread.from_observations([*FIRST, *LATER]).counts())
    assert whole == "2 calls (+2 in sub-agents), 1 failed (+1 in sub-agents)"

    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/subs") as publisher:
            publisher.ensure_thread()
            publisher.publish(FIRST)
            page.goto(f"{server.url}/threads/subs")
            expect(page.locator("#tv-counts")).to_have_text(first)
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            publisher.publish(LATER)
            expect(page.locator("#tv-call-own")).to_have_attribute("data-state", "error")
            expect(page.locator("#tv-counts")).to_have_text(whole)
        (card,) = httpx.get(f"{server.url}/api/threads").json()["threads"]
        assert card["counts"] == whole

    in_browser(scenario)
