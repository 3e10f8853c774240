"""Fuzz the server's ingest endpoint in-process: 200 with seqs, or a 4xx that says why.

Never a 500, never a stack trace; what was accepted reads back the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from fuzz import strategies as s
from fuzz.budget import fuzz
from toolview.server import create_app
from toolview.wire.log.sqlite import SQLiteLog

URL = "/api/threads/fuzz/observations"
LOOPBACK = {"base_url": "http://127.0.0.1"}  # the server answers only to its own names


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("ingest") / "log.db"
    with TestClient(
        create_app(lambda: SQLiteLog(path)), **LOOPBACK, raise_server_exceptions=False
    ) as c:
        assert c.post("/api/threads", json={"id": "fuzz"}).status_code in (200, 201)
        yield c


def check_ingest(client: TestClient, body: bytes) -> None:
    response = client.post(URL, content=body, headers={"content-type": "application/json"})
    assert response.status_code in (200, 400, 413), (response.status_code, response.text)
    payload = response.json()
    if response.status_code == 200:
        assert len(payload["seqs"]) >= 1 and all(type(seq) is int for seq in payload["seqs"])
    else:
        error = payload["error"]
        assert isinstance(error, str) and error
        # One line (an echoed value is quoted with its controls escaped), so no
        # stack trace can hide in it; and none of the server's own.
        assert "\n" not in error and len(error) < 1000, error
        if b"Traceback" not in body:
            assert "Traceback" not in response.text


def _invalid_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _lines(documents: list[object]) -> bytes:
    return b"\n".join(msgspec.json.encode(document) for document in documents)


@given(
    st.lists(s.observation_documents, max_size=5).map(_lines)
    | st.lists(s.observation_documents, max_size=5).map(msgspec.json.encode)
    | st.binary(max_size=200)
)
@fuzz("server ingest endpoint", share=0.5)
def test_ingest_accepts_or_refuses_clearly(client: TestClient, body: bytes) -> None:
    check_ingest(client, body)
