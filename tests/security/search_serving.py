"""A real ``toolview serve`` with a thread to search, for the search-engine tests and fuzzing.

The thread holds what a hostile pattern feeds on (a long run of ``a``, text
with ``ß`` and ``ﬁ``) beside ordinary calls. Clients may come from another
loopback address (``client``): the per-client search cap counts by address.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Final

import httpx
import pytest
from toolview_servers import NDJSON, ToolviewServer

RUN: Final = "a" * 5000 + "!"  # what (a|aa)*$ backtracks over for the whole time budget
SLOW: Final = "(a|aa)*$"  # passes the pattern rules; stopped only by the time budget


def observations(calls: int) -> list[dict[str, object]]:
    """A user message, ``calls`` shell calls with their outputs, and one output to backtrack on."""
    made: list[dict[str, object]] = [{"kind": "message", "role": "user", "text": "Straße ﬁle"}]
    for i in range(calls):
        made.append(
            {
                "kind": "tool-call",
                "toolCallId": f"c{i}",
                "toolName": "shell",
                "args": {"command": f"grep needle f{i}"},
            }
        )
        made.append(
            {
                "kind": "tool-result",
                "toolCallId": f"c{i}",
                "toolName": "shell",
                "text": f"line {i}\nneedle {i} Straße\n",
                "complete": True,
                "isError": False,
            }
        )
    made.append(
        {
            "kind": "tool-result",
            "toolCallId": "run",
            "toolName": "shell",
            "text": RUN,
            "complete": True,
            "isError": False,
        }
    )
    return made


def post_thread(url: str, thread: str, calls: int) -> None:
    """Create ``thread`` and post its observations in one batch."""
    httpx.post(f"{url}/api/threads", json={"id": thread}, timeout=60).raise_for_status()
    body = "\n".join(map(json.dumps, observations(calls)))
    posted = httpx.post(
        f"{url}/api/threads/{thread}/observations", content=body, headers=NDJSON, timeout=120
    )
    assert posted.status_code == 200, posted.text


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    """``toolview serve`` on SQLite with thread ``t`` (20 calls and the run of ``a``)."""
    started = ToolviewServer.start(
        ["--port", "0", "--db", str(tmp_path_factory.mktemp("search") / "log.db")]
    )
    try:
        post_thread(started.url, "t", 20)
        yield started
    finally:
        started.kill()


def client(address: str = "127.0.0.1", timeout: float = 60) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127/8)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(transport=transport, timeout=timeout)


def search(url: str, query: str, regex: str = "1", address: str = "127.0.0.1") -> httpx.Response:
    """``GET /api/threads/t/search`` from ``address``."""
    with client(address) as http:
        return http.get(f"{url}/api/threads/t/search", params={"q": query, "regex": regex})


class TrivialTimer:
    """Times ``GET /api/threads`` over and over in a thread until stopped: the slowest, in s.

    Why a thread of its own: the question is whether the server answers a
    trivial request while something else runs, so it asks all the time.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.times: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def __enter__(self) -> TrivialTimer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        with client() as http:
            while not self._stop.is_set():
                began = time.perf_counter()
                try:
                    answer = http.get(f"{self.url}/api/threads")
                    if answer.status_code != 200:
                        self.failures.append(f"{answer.status_code}: {answer.text[:200]}")
                except httpx.HTTPError as exc:
                    self.failures.append(repr(exc))
                    return
                self.times.append(time.perf_counter() - began)

    @property
    def slowest(self) -> float:
        """The slowest trivial request so far (0 if none)."""
        return max(self.times, default=0.0)
