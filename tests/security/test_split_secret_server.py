"""A secret split across two streamed partials, through a real server.

A sample of the matrix tests/wire/test_split_secrets.py runs sans-IO (every
credential, every cut): the formats the red team saw leak (AWS key id, GCP
API key, Stripe test key, Hugging Face, SendGrid, URL passwords) and a GitHub
token, each cut at its first character, at the end of its public prefix, one
past it, its middle and its last character. Posted to uvicorn on a loopback
port while a live follower reads ``/follow?mode=live``, then listed by
``/events``: neither shows more of the secret than its public prefix
(``split_secrets.leak``), and the live view rebuilds the final text exactly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_threads import ThreadedServer
from split_secrets import SPLIT_CASES, leak, public_prefix
from sse_client import SSEFrame, read_frames

from toolview.remote.rebuild import LiveRebuilder
from toolview.safety import redact
from toolview.wire.log.sqlite import SQLiteLog

NDJSON = {"content-type": "application/x-ndjson"}
SAMPLE = {"00-aws-access-key-id", "04-gcp-api-key", "30-stripe-key", "20-huggingface-token"}
SAMPLE |= {"33-sendgrid-api-key", "44-url-password", "45-url-password", "46-url-password"}
SAMPLE |= {"08-github-token"}
CASES = [
    (label, before, after, secret, k)
    for label, before, after, secret in SPLIT_CASES
    if label in SAMPLE
    for k in sorted(
        {1, max(1, len(public_prefix(secret))), len(public_prefix(secret)) + 1}
        | {len(secret) // 2, len(secret) - 1}
    )
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    path: Path = tmp_path_factory.mktemp("split") / "log.db"
    with ThreadedServer(lambda: SQLiteLog(path), keepalive=1.0) as served:
        yield served


def post(server: ThreadedServer, thread: str, *observations: dict[str, Any]) -> None:
    body = "".join(json.dumps(o) + "\n" for o in observations)
    url = f"{server.url}/api/threads/{thread}/observations"
    httpx.post(url, content=body, headers=NDJSON).raise_for_status()


def result(text: str, complete: bool) -> dict[str, Any]:
    return {
        "kind": "tool-result",
        "toolCallId": "c1",
        "toolName": "shell",
        "text": text,
        "complete": complete,
        "isError": False,
    }


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.005)  # polling a condition, with a deadline


def follow_live(
    server: ThreadedServer, thread: str, texts: list[str], final: str
) -> list[SSEFrame]:
    """Post the partials and the final while a live follower reads; its frames."""
    seen: list[SSEFrame] = []
    done: list[list[SSEFrame]] = []

    def until(frames: list[SSEFrame]) -> bool:
        seen[:] = frames
        return any(f.data.get("complete") for f in frames)

    url = f"{server.url}/api/threads/{thread}/follow?mode=live"
    reader = threading.Thread(target=lambda: done.append(read_frames(url, until=until)))
    reader.start()
    post(server, thread, result(texts[0], False))
    wait_until(lambda: any(f.data["kind"] == "tool-output" for f in seen), "the first partial")
    post(server, thread, result(texts[1], False), result(final, True))
    reader.join(timeout=60)
    assert done, "the live stream never completed"
    return done[0]


@pytest.mark.parametrize(
    ("label", "before", "after", "secret", "k"),
    CASES,
    ids=[f"{c[0]}-cut{c[4]}" for c in CASES],
)
def test_a_split_secret_never_leaks_through_a_real_server(
    server: ThreadedServer, label: str, before: str, after: str, secret: str, k: int
) -> None:
    thread = f"s{CASES.index((label, before, after, secret, k))}"
    httpx.post(f"{server.url}/api/threads", json={"id": thread}).raise_for_status()
    post(server, thread, {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {}})
    texts, final = [before + secret[:k], before + secret], before + secret + after
    frames = follow_live(server, thread, texts, final)
    rebuilder = LiveRebuilder()
    for frame in frames:
        text = frame.data.get("text", "")
        assert leak(text, before, secret, after) is None, f"/follow live: {text!r}"
        rebuilt = rebuilder.decode(int(frame.id or 0), json.dumps(frame.data)).observation
    assert getattr(rebuilt, "text", None) == redact(final)  # rebuilt exactly
    events = httpx.get(f"{server.url}/api/threads/{thread}/events").json()["events"]
    listed = [e["observation"].get("text", "") for e in events]
    assert len(listed) == 4
    for text in listed:
        assert leak(text, before, secret, after) is None, f"/events: {text!r}"
