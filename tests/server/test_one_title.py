"""One title, start and status for a session: ``sessions``, the index and the page header.

Before, ``sessions`` printed the first user message raw (a slash command as
``<command-message>`` markup, a system reminder as the prompt), the index cut
its own title from the first user message, and the page header said the
thread's id. Now all read ``contract.session_facts``: random threads (every
shape of ``thread_strategies``, with real, injected and slash-command prompts
and the agent's answers among them) fold to the same facts in ``sessions``'
summary (``cli.session_summary.fold``, what ``sessions --json`` prints) and in
the index's card (``/api/threads``); the page header is that card's title.
"""

from __future__ import annotations

import msgspec
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_thread_search import post
from thread_strategies import threads

from toolview.cli.session_summary import Summary, fold
from toolview.contract import Message, Observation, RunStarted
from toolview.server.page.index.card import Card

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
SLASH = (
    "<command-message>init is analyzing your codebase…</command-message>\n"
    "<command-name>/init</command-name>\n<command-args>--fast src</command-args>"
)
NOW = 1_900_000_000.0
PROMPTS = st.sampled_from(
    [SLASH, "<system-reminder>r</system-reminder>", "fix it", "x" * 75 + SECRET, ""]
)


@st.composite
def sessions(draw: st.DrawFn) -> list[Observation]:
    """Random threads with real and injected prompts and the agent's answers among them."""
    out = list(draw(threads()))
    for _ in range(draw(st.integers(0, 4))):
        message = Message(draw(st.sampled_from(["user", "assistant"])), draw(PROMPTS))
        out.insert(draw(st.integers(0, len(out))), message)
    for _ in range(draw(st.integers(0, 2))):  # the host's session facts, restated or not
        cwd, title = draw(FOLDERS), draw(st.sampled_from(["", "Own title", SLASH, SECRET]))
        started = RunStarted(run_id="r0", cwd=cwd, title=title) if cwd else RunStarted("r0")
        out.insert(draw(st.integers(0, len(out))), started)
    return out


FOLDERS = st.sampled_from(["", "/home/ann/src/shop", "C:\\work\\api", "/srv/" + SECRET])


@given(sessions())
def test_sessions_and_the_index_say_one_title_start_and_status(
    observations: list[Observation],
) -> None:
    summary = fold(Summary("toolview", "t", "t.jsonl", "", "", None, None), observations)
    card = Card("t", 0.0)
    card.fold([(n, msgspec.json.encode(o)) for n, o in enumerate(observations, 1)])
    listed = card.as_json()
    assert (summary.prompt or "t") == listed["title"]
    assert summary.project == listed["project"] and SECRET[:10] not in str(listed["project"])
    assert "<command-" not in str(listed["title"]) and SECRET[:10] not in str(listed["title"])
    assert summary.start == card.facts.start and summary.end == card.facts.last
    assert summary.counts.running == listed["running"]
    assert summary.status(NOW) == card.facts.status(summary.counts.running, NOW)


def test_the_page_header_says_the_indexs_title(client: TestClient) -> None:
    post(client, "claude-s1", [Message("user", "<system-reminder>r</system-reminder>"),
                               Message("user", SLASH), Message("assistant", "done")])  # fmt: skip
    (listed,) = client.get("/api/threads").json()["threads"]
    assert (listed["title"], listed["agent"]) == ("/init --fast src", "claude")
    page = client.get("/threads/claude-s1").text
    assert '<h1 id="tv-title">/init --fast src</h1>' in page
    assert "<title>/init --fast src · toolview</title>" in page


def test_the_index_and_the_page_say_the_agents_own_title_and_project(client: TestClient) -> None:
    post(client, "claude-s2", [RunStarted("r", cwd="/home/ann/src/shop", title="Fix login"),
                               Message("user", "do the task")])  # fmt: skip
    (listed,) = client.get("/api/threads").json()["threads"]
    assert (listed["title"], listed["project"]) == ("Fix login", "shop")
    assert '<h1 id="tv-title">Fix login</h1>' in client.get("/threads/claude-s2").text
