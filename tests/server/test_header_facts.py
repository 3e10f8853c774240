"""The thread page header's facts (server.page.header.facts): model(s), tokens, time.

Said from the session's counts (``contract.counts``): a sub-agent's model and
tokens count, its tokens said apart, as every view says them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path

import httpx
import msgspec
import pytest
from page_browser import in_browser
from playwright.sync_api import Page, expect
from starlette.testclient import TestClient
from test_counts_real import CLAUDE, CODEX
from toolview_servers import NDJSON, ToolviewServer

from toolview.contract import (
    Message,
    Observation,
    RunStarted,
    ToolCall,
    ToolResult,
    Usage,
    encode_observation,
)
from toolview.hosts import claude_code, codex
from toolview.remote.client import Publisher


@pytest.fixture
def server(served: Callable[..., ToolviewServer], tmp_path: Path) -> ToolviewServer:
    """A server on a log of its own (the ``served`` fixture kills it after)."""
    return served("--db", str(tmp_path / "log.db"))


def facts(page: str) -> dict[str, str]:
    found = re.search(r'<dl class="tv-facts"[^>]*>(.*?)</dl>', page, re.S)
    assert found is not None, "no facts in the header"
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", found.group(1))
    return {unescape(term): unescape(words) for term, words in pairs}


def test_the_header_says_models_tokens_and_time(server: ToolviewServer) -> None:
    sub = [
        ToolCall("s1", "Read", {}),
        Usage(model="claude-sub", input_tokens=300, output_tokens=20),
        ToolResult("s1", "Read", "ok", True, False),
    ]
    with Publisher(f"{server.url}/threads/facts") as publisher:
        publisher.ensure_thread()
        publisher.publish([Message("user", "go", at="2026-12-01T23:44:20Z")])
        publisher.publish([ToolCall("agent", "Agent", {"prompt": "look"})])
        publisher.publish([msgspec.structs.replace(o, parent_call_id="agent") for o in sub])
        publisher.publish([ToolResult("agent", "Agent", "done", True, False)])
        publisher.publish([Usage(model="claude-x", input_tokens=1200, output_tokens=80)])
        publisher.publish([Message("assistant", "done", at="2026-12-01T23:56:23Z")])
    page = httpx.get(f"{server.url}/threads/facts").text
    assert facts(page) == {
        "Models": "claude-x, claude-sub",
        "Tokens": "1,280 (+320 in sub-agents)",
        "Time": "12 min 3 s",
    }


def test_a_thread_with_nothing_known_has_no_facts(server: ToolviewServer) -> None:
    with Publisher(f"{server.url}/threads/bare") as publisher:
        publisher.ensure_thread()
        publisher.publish([ToolCall("c1", "Read", {})])
    page = httpx.get(f"{server.url}/threads/bare").text
    assert "tv-facts" not in page and 'id="tv-counts"' in page


@pytest.mark.browser
def test_the_facts_follow_the_thread_live(server: ToolviewServer) -> None:
    """Drawn (as text) from the summary fragment's header as usage arrives, no reload."""

    def scenario(page: Page) -> None:
        with Publisher(f"{server.url}/threads/grows") as publisher:
            publisher.ensure_thread()
            publisher.publish(
                [ToolCall("c1", "Read", {}), ToolResult("c1", "Read", "ok", True, False)]
            )
            page.goto(f"{server.url}/threads/grows")
            expect(page.locator("#tv-live")).to_have_attribute("data-connected", "true")
            expect(page.locator("dl.tv-facts")).to_have_count(0)
            publisher.publish([Usage(model="<b>claude-x</b>", input_tokens=1200, output_tokens=80)])
            publisher.publish(
                [ToolCall("c2", "Read", {}), ToolResult("c2", "Read", "ok", True, False)]
            )
            facts = page.locator("dl.tv-facts")
            expect(facts).to_contain_text("<b>claude-x</b>")  # as text, never markup
            expect(facts).to_contain_text("1,280")
            expect(facts.locator("b")).to_have_count(0)

    in_browser(scenario)


def who(page: str) -> dict[str, str]:
    found = re.search(r'<dl class="tv-who"[^>]*>(.*?)</dl>', page, re.S)
    assert found is not None, "no agent or project in the header"
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", found.group(1))
    return {unescape(term): unescape(words) for term, words in pairs}


REAL = [
    pytest.param("claude-a8ad1218", CLAUDE, claude_code.load_observations, id="claude-code"),
    pytest.param("codex-01a23423", CODEX, codex.load_observations, id="codex"),
]


@pytest.mark.parametrize(("thread_id", "path", "load"), REAL)
def test_the_header_says_the_indexs_agent_project_branch_and_start(
    client: TestClient, thread_id: str, path: Path, load: Callable[[Path], Iterator[object]]
) -> None:
    """Real Claude Code and Codex sessions: the header copies ``/api/threads``' card."""
    observations = [o for o in load(path) if isinstance(o, Observation)]
    client.post("/api/threads", json={"id": thread_id}).raise_for_status()
    body = b"\n".join(encode_observation(o) for o in observations)
    posted = client.post(f"/api/threads/{thread_id}/observations", content=body, headers=NDJSON)
    posted.raise_for_status()
    (card,) = client.get("/api/threads").json()["threads"]
    assert card["agent"] != "toolview" and card["project"]  # the real agent, in its folder
    said = who(client.get(f"/threads/{thread_id}").text)
    assert (said["Agent"], said["Project"], said.get("Branch", "")) == (
        card["agent"],
        card["project"],
        card["branch"] or "",  # Claude Code's git branch; this Codex rollout names none
    )
    assert said["Started"] == card["startedAt"].replace("T", " ")[:16] + " UTC"


def test_a_synced_sessions_machine_and_user_are_on_its_card_and_header(
    client: TestClient,
) -> None:
    """``toolview sync`` stamps the run-started; the card and the header say it, as text."""
    started = RunStarted(run_id="r", machine="<b>laptop-7</b>\x1b[31m", user="ann")
    client.post("/api/threads", json={"id": "claude-s1"}).raise_for_status()
    body = encode_observation(started) + b"\n" + encode_observation(ToolCall("c1", "Read", {}))
    client.post("/api/threads/claude-s1/observations", content=body, headers=NDJSON)
    (card,) = client.get("/api/threads").json()["threads"]
    assert (card["machine"], card["user"]) == ("<b>laptop-7</b>", "ann")  # its controls cleaned
    page = client.get("/threads/claude-s1").text
    assert (who(page)["Machine"], who(page)["User"]) == (card["machine"], "ann")
    assert "<b>laptop-7" not in page  # escaped, never markup


@pytest.mark.browser
def test_the_index_row_says_the_machine_and_user_as_text(server: ToolviewServer) -> None:
    """The index's Agent cell: ``claude · <machine> (<user>)``, a hostile name never markup."""
    machine = "<img src=x onerror=alert(1)>"
    with Publisher(f"{server.url}/threads/claude-s2") as publisher:
        publisher.ensure_thread()
        publisher.publish([RunStarted(run_id="r", machine=machine, user="ann")])

    def scenario(page: Page) -> None:
        page.goto(f"{server.url}/")
        row = page.locator('tr[data-thread="claude-s2"]')
        expect(row.locator('td[data-label="Agent"]')).to_have_text(f"claude · {machine} (ann)")
        expect(row.locator("img")).to_have_count(0)

    in_browser(scenario)
