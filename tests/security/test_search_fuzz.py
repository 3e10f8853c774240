"""Fuzzing the search routes against a real server, which must stay up and answer meanwhile.

Hypothesis writes ``q`` (regex syntax soup, the constructs that once crashed
or held the server, arbitrary text, patterns up to the length limit) with
``regex`` 0 or 1, for a thread's search and the cross-thread one. Every
answer is a 200 or a 400 with its reason, in JSON; all the while a trivial
request (``GET /api/threads``), asked over and over in a thread of its own,
is answered within a generous bound of its normal few milliseconds. CI runs
``EXAMPLES`` cases; ``--long`` (the ``slow`` marker) runs ``LONG_EXAMPLES``.
"""

from __future__ import annotations

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from search_serving import TrivialTimer, served
from test_search_engine import TRIVIAL_BOUND, alive
from toolview_servers import ToolviewServer

__all__ = ["served"]

EXAMPLES = 150
LONG_EXAMPLES = 3000
FRAGMENTS = [
    *"()[]{}|*+?.^$\\,-:<>=!#&aAbß ",
    "ﬁ",
    "(?:",
    "(?i)",
    "(?f)",
    "(?fi)",
    "(?V1)",
    "(?V0)",
    "(?s)",
    "(?x)",
    "(?R)",
    "(?1)",
    "(?P<n>",
    "(?P=n)",
    "(?=",
    "(?<=",
    "(?>",
    "(?|",
    "(?#",
    "{1000}",
    "{1001}",
    "{200000}",
    "{10000000}",
    "{2,}",
    "{,5}",
    "{e<=3}",
    r"\p{L}",
    r"\w",
    r"\d",
    r"\s",
    r"\b",
    r"\N{DASH}",
    r"\x{41}",
    r"\g<1>",
    "[[a]--[b]]",
    "[^]",
    "needle",
    "line",
    "a+",
    "a*",
    "(a|aa)",
    "\x00",
]
queries = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=40).map("".join),
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=60),
    st.tuples(st.sampled_from(FRAGMENTS[30:]), st.integers(1, 1000)).map(
        lambda pair: (pair[0] * pair[1])[:1000]
    ),
)


def _one(http: httpx.Client, url: str, query: str, regex: str, route: str) -> None:
    path = "/api/search" if route == "all" else "/api/threads/t/search"
    answer = http.get(f"{url}{path}", params={"q": query, "regex": regex})
    assert answer.status_code in (200, 400), f"{route} {query!r}: {answer.status_code}"
    body = answer.json()
    if answer.status_code == 400:
        assert body["error"], body
    elif route == "thread":
        assert body["total"] >= len(body["matches"]), body


def _fuzz(server: ToolviewServer, examples: int) -> None:
    with httpx.Client(timeout=60) as http, TrivialTimer(server.url) as timer:

        @settings(max_examples=examples, suppress_health_check=list(HealthCheck))
        @given(
            query=queries,
            regex=st.sampled_from(["0", "1"]),
            route=st.sampled_from(["thread", "all"]),
        )
        def check(query: str, regex: str, route: str) -> None:
            _one(http, server.url, query, regex, route)
            assert server.process.poll() is None, f"the server exited on {query!r}"

        check()
    assert not timer.failures, timer.failures
    assert timer.times and timer.slowest < TRIVIAL_BOUND, f"slowest {timer.slowest:.3f} s"
    alive(server)


def test_fuzzing_the_search_routes_never_stops_or_holds_the_server(served: ToolviewServer) -> None:
    _fuzz(served, EXAMPLES)


@pytest.mark.slow
def test_fuzzing_the_search_routes_long(served: ToolviewServer) -> None:
    _fuzz(served, LONG_EXAMPLES)
