"""``rec.mcp(session)`` answers a real MCP server's ``elicitation/create``.

The server (``mcp_elicit_server.py``) asks with the SDK's ``ctx.elicit``. At
the terminal a person types each field; on a real ``toolview serve`` a client
posts the ``answer`` to the decision endpoint. Each ask is its own call that
waits (``needs_input``, the schema kept) and then settles. Hostile: a schema
the spec does not allow is refused and declined before anyone sees it; an
answer that does not fit the form is refused by the server (400, nothing
written) and, typed at the terminal, declined before the server gets it.
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from test_mcp import _quiet
from toolview_servers import ToolviewServer

import toolview
from toolview.contract import Observation, ToolWaiting

SERVER = Path(__file__).with_name("mcp_elicit_server.py")


async def _ask(rec: toolview.CaptureSession, tool: str) -> str:
    """Call ``tool`` on the server with ``rec.mcp`` attached before ``initialize``."""
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    with anyio.fail_after(120):
        async with (
            stdio_client(params, errlog=_quiet()) as (read, write),
            ClientSession(read, write) as session,
        ):
            rec.mcp(session)
            await session.initialize()
            result = await session.call_tool(tool, {})
    return str(result.content[0].text)  # type: ignore[union-attr]


def _typed(monkeypatch: pytest.MonkeyPatch, lines: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))


def _elicitation(rec: toolview.CaptureSession) -> Any:
    thread = rec.thread
    (entry,) = [e for e in thread.calls() if e.tool_name == "elicitation"]
    return thread, entry


def test_the_person_answers_the_form_at_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    _typed(monkeypatch, "friday\n3\ntrue\n")
    with toolview.capture(live=False) as rec:
        said = anyio.run(_ask, rec, "book")
    assert said == "booked 3 seats on friday vegan=True"
    thread, entry = _elicitation(rec)
    assert entry.waiting.question == "Which table?"
    assert set(entry.waiting.schema["properties"]) == {"date", "seats", "vegan"}
    assert entry.decision.decision == "answer"
    assert entry.decision.answer == {"date": "friday", "seats": 3, "vegan": True}
    assert thread.state(entry) == "done"


def test_an_empty_line_declines(monkeypatch: pytest.MonkeyPatch) -> None:
    _typed(monkeypatch, "\n")
    with toolview.capture(live=False) as rec:
        said = anyio.run(_ask, rec, "book")
    assert said == "not booked: decline"
    assert _elicitation(rec)[1].decision.decision == "deny"


def test_an_answer_that_does_not_fit_is_declined_before_the_server_gets_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _typed(monkeypatch, "friday\n99\nfalse\n")  # seats at most 8
    with toolview.capture(live=False) as rec:
        said = anyio.run(_ask, rec, "book")
    assert said == "not booked: decline"


def test_a_hostile_schema_is_refused_and_declined_unseen(monkeypatch: pytest.MonkeyPatch) -> None:
    _typed(monkeypatch, "")  # nobody is asked: a prompt would read nothing and decline anyway
    with toolview.capture(live=False) as rec:
        said = anyio.run(_ask, rec, "nested")
    assert said == "asked: decline"
    thread, entry = _elicitation(rec)
    assert thread.state(entry) == "refused"
    assert entry.waiting is None
    assert "not a string, number, integer or boolean" in entry.result.reason


def _answer_when_asked(
    rec: toolview.CaptureSession, post: Callable[[str], None], asked: threading.Event
) -> threading.Thread:
    """Post the page's answer once the elicitation waits and the server holds it.

    The test sets ``asked`` itself once its call returns: a call nobody asked
    about (the old code) ends the thread at once, without a post.
    """
    ids: list[str] = []

    def watch(observation: Observation) -> None:
        if isinstance(observation, ToolWaiting):
            ids.append(observation.tool_call_id)
            asked.set()

    rec.add_watcher(watch)

    def answer() -> None:
        assert asked.wait(120)
        if not ids:
            return
        assert rec.publishing is not None and rec.publishing.sent(30)
        post(ids[0])

    answering = threading.Thread(target=answer)
    answering.start()
    return answering


def _book_on_page(
    server: ToolviewServer, thread: str, post: Callable[[str], None]
) -> tuple[str, toolview.CaptureSession]:
    """Call ``book`` published to ``server``; ``post`` answers once the ask waits there."""
    with toolview.capture(live=False, to=server.url, thread_id=thread) as rec:
        answering = _answer_when_asked(rec, post, asked := threading.Event())
        try:
            said = anyio.run(_ask, rec, "book")
        finally:
            asked.set()
            answering.join()
    return said, rec


def test_the_page_answers_and_a_bad_answer_is_refused(
    served: Callable[[], ToolviewServer],
) -> None:
    server, codes = served(), []
    api = f"{server.url}/api/threads/el"

    def post(call: str) -> None:
        decide = f"{api}/calls/{call}/decision"
        bad = {"decision": "answer", "answer": {"date": "monday", "seats": "many"}}
        codes.append(httpx.post(decide, json=bad).status_code)
        extra = {"decision": "answer", "answer": {"date": "monday", "seats": 2, "evil": 1}}
        codes.append(httpx.post(decide, json=extra).status_code)
        good = {"decision": "answer", "answer": {"date": "monday", "seats": 2}}
        codes.append(httpx.post(decide, json=good).status_code)

    said, rec = _book_on_page(server, "el", post)
    assert codes == [400, 400, 201]
    assert said == "booked 2 seats on monday vegan=False"
    thread, entry = _elicitation(rec)
    assert entry.decision.answer == {"date": "monday", "seats": 2}
    assert thread.state(entry) == "done"


def test_a_page_deny_declines(served: Callable[[], ToolviewServer]) -> None:
    server = served()
    api = f"{server.url}/api/threads/no"

    def post(call: str) -> None:
        httpx.post(f"{api}/calls/{call}/decision", json={"decision": "deny"})

    said, _ = _book_on_page(server, "no", post)
    assert said == "not booked: decline"
