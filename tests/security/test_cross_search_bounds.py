"""A hostile cross-thread search (``GET /api/search``) holds no other reader up (issue 21, #3).

The log: 60,000 messages that each hold the same 40 words, so every word
matches every row and FTS5's ranking costs what it can. On the old server 500
of those words ran 43-48 s under the log's one read lock, and another thread's
``/events`` waited 28.8 s (5 ms idle). Now at most ``MAX_TERMS`` distinct words
are searched, on connections of the search's own, within a deadline; a real
``toolview serve`` process answers, with ``$TOOLVIEW_SEARCH_SECONDS`` forcing a
tiny deadline where a test needs one.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import NDJSON, ToolviewServer

from toolview.contract import Message, encode_observation
from toolview.wire.log_sqlite import SQLiteLog
from toolview.wire.log_sqlite_query import MAX_TERMS

WORDS = [f"w{n}" for n in range(40)]  # 40 distinct words: more than MAX_TERMS
ROWS = 60_000
QUICK = 3.0  # seconds: a trivial request's bound beside the search (idle: ~5 ms; old: 28.8 s)
SEARCH_BOUND = 20.0  # seconds: the search's own answer (deadline 2 s; old: 43-48 s)


def fill(path: Path) -> None:
    """The big thread, indexed, and a small one to read and post to beside the search."""

    async def scenario() -> None:
        log = SQLiteLog(path)
        await log.create_thread("big")
        shuffled = random.Random(21)
        for _ in range(ROWS // 1000):
            batch = []
            for _ in range(1000):
                words = WORDS[:]
                shuffled.shuffle(words)
                batch.append(Message("assistant", " ".join(words)))
            await log.append("big", batch)
        await log.create_thread("other")
        await log.append("other", [Message("user", "a small thread")])
        await log.search("w0", 1, 600)  # the index caught up: the server's searches search
        await log.aclose()

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cross-search") / "log.db"
    fill(path)
    return path


@pytest.fixture
def served(big_log: Path) -> Iterator[ToolviewServer]:
    server = ToolviewServer.start(["--db", str(big_log), "--port", "0"])
    yield server
    server.kill()


def timed(request: httpx.Request, client: httpx.Client) -> float:
    """Seconds ``request`` took to answer 2xx (``QUICK`` × 3 if it did not answer by then)."""
    start = time.monotonic()
    try:
        answer = client.send(request)
    except httpx.TimeoutException:
        return 3 * QUICK
    assert answer.is_success, answer.text[:200]
    return time.monotonic() - start


def test_a_500_word_search_holds_up_neither_another_threads_events_nor_a_post(
    served: ToolviewServer,
) -> None:
    query = " ".join((WORDS * 13)[:500])
    found: dict[str, object] = {}
    done = threading.Event()

    def search() -> None:
        started = time.monotonic()
        answer = httpx.get(f"{served.url}/api/search", params={"q": query}, timeout=120)
        found.update(answer.json(), seconds=time.monotonic() - started)
        done.set()

    threading.Thread(target=search, daemon=True).start()
    line = encode_observation(Message("assistant", "still answering"))
    slowest = {"events": 0.0, "post": 0.0}
    with httpx.Client(base_url=served.url, timeout=3 * QUICK) as client:
        while not done.is_set():  # for as long as the search runs
            events = client.build_request("GET", "/api/threads/other/events")
            post = client.build_request(
                "POST", "/api/threads/other/observations", content=line, headers=NDJSON
            )
            slowest["events"] = max(slowest["events"], timed(events, client))
            slowest["post"] = max(slowest["post"], timed(post, client))
            assert max(slowest.values()) < QUICK, f"held up beside a search: {slowest}"
    assert done.wait(SEARCH_BOUND)
    assert isinstance(found["seconds"], float) and found["seconds"] < SEARCH_BOUND, found
    assert found["words"] == WORDS[:MAX_TERMS] and found["dropped"] == len(WORDS) - MAX_TERMS


def test_words_are_searched_once_each_and_the_answer_says_which(served: ToolviewServer) -> None:
    query = "W1 w1 w1 " + " ".join(WORDS[:3]) + " w1"
    answer = httpx.get(f"{served.url}/api/search", params={"q": query}, timeout=60).json()
    assert answer["words"] == ["W1", "w0", "w2"] and answer["dropped"] == 0
    assert answer["results"] and not answer["truncated"]


def test_a_search_past_its_deadline_answers_truncated(
    big_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLVIEW_SEARCH_SECONDS", "0.01")  # the 32 words rank in ~0.5 s
    server = ToolviewServer.start(["--db", str(big_log), "--port", "0"])
    try:
        query = " ".join(WORDS[:MAX_TERMS])
        answer = httpx.get(f"{server.url}/api/search", params={"q": query}, timeout=60).json()
    finally:
        server.kill()
    assert answer["truncated"] is True and answer["stopped"] == "time", answer
    assert isinstance(answer["results"], list)
