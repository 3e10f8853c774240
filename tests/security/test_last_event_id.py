"""A resume point the server cannot use is a 400 naming it: never a 500, never a cut stream.

``"²".isdigit()`` is true, ``int()`` of 5,000 digits raises, and a seq of
2**63 or more overflows SQLite's integer: each once got past the check.
Sent over a real socket (uvicorn), since a stream that starts with 200 and then
dies is only visible there.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from server_threads import ThreadedServer

from toolview.server.live.agui_follow import Position, parse_position
from toolview.wire.log.sqlite import SQLiteLog

BAD_SEQS = [
    "²",
    "1²",
    "١",  # Arabic-Indic one
    "１",  # fullwidth one
    "9" * 5000,
    str(2**63),
    str(2**64),
    "9" * 20,
    "-1",
    "+1",
    "1_0",
    "0x10",
    "1e3",
]
BAD_AGUI_IDS = [*BAD_SEQS, "1.²", "1." + "9" * 5000, "1.-1", "1.", ".1", "1.1.1"]
ENDPOINTS = {
    "follow": ("/api/threads/t/follow", BAD_SEQS),
    "agui": ("/api/threads/t/agui?follow=1", BAD_AGUI_IDS),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    path = tmp_path_factory.mktemp("leid") / "log.db"
    with ThreadedServer(lambda: SQLiteLog(path), keepalive=0.5) as served:
        own = {"host": f"127.0.0.1:{served.port}"}
        httpx.post(f"{served.url}/api/threads", json={"id": "t"}, headers=own).raise_for_status()
        yield served


def opened(server: ThreadedServer, path: str, headers: dict[str, bytes]) -> tuple[int, bytes]:
    """The status and the first bytes of the answer (a stream that opened is not read on)."""
    with (
        httpx.Client(base_url=server.url, timeout=30) as client,
        client.stream("GET", path, headers=headers) as response,
    ):
        if response.status_code == 200:
            return 200, b""
        return response.status_code, response.read()


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_bad_resume_point_is_a_400_by_header_and_by_query(
    server: ThreadedServer, endpoint: str
) -> None:
    path, bad = ENDPOINTS[endpoint]
    joiner = "&" if "?" in path else "?"
    for raw in bad:
        by_header = opened(server, path, {"last-event-id": raw.encode()})  # as UTF-8
        by_query = opened(server, f"{path}{joiner}lastEventId={quote(raw)}", {})
        for status, body in (by_header, by_query):
            assert status == 400, f"{endpoint} {raw[:20]!r}: {status} {body[:200]!r}"
            assert b"Last-Event-ID" in body and b"Traceback" not in body


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_the_largest_seq_still_opens_the_stream(server: ThreadedServer, endpoint: str) -> None:
    path, _ = ENDPOINTS[endpoint]
    for good in ("0", "7", str(2**63 - 1)):
        assert opened(server, path, {"last-event-id": good.encode()})[0] == 200, good


def test_agui_positions_are_read_exactly() -> None:
    assert parse_position("7") == Position(7)
    assert parse_position("7.2") == Position(7, 2)
    assert parse_position(str(2**63 - 1)) == Position(2**63 - 1)
    for raw in BAD_AGUI_IDS:
        with pytest.raises(ValueError, match="Last-Event-ID"):
            parse_position(raw)
