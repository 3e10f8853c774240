"""Search across threads on the Redis log: the index each server process keeps from the streams."""

from __future__ import annotations

import asyncio
import uuid

import httpx
from toolview_servers import NDJSON, RedisServer, ToolviewServer

from toolview.contract import Message, ToolCall, ToolResult, encode_observation
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite_query import MAX_TERMS

SEARCH = 64 * 1024 * 1024  # its index's budget: the Redis log searches only when given one
GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"


def post(server: ToolviewServer, thread: str, text: str) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        client.post("/api/threads", json={"id": thread})
        body = encode_observation(Message("assistant", text)).decode()
        answer = client.post(f"/api/threads/{thread}/observations", content=body, headers=NDJSON)
        assert answer.status_code == 200, answer.text


def found(server: ToolviewServer, word: str) -> dict[str, object]:
    answer = httpx.get(f"{server.url}/api/search", params={"q": word}, timeout=30)
    assert answer.status_code == 200, answer.text
    result: dict[str, object] = answer.json()
    return result


def test_a_call_appended_through_one_server_is_found_through_another(
    redis_server: RedisServer,
) -> None:
    word, later = f"okapi{uuid.uuid4().hex[:8]}", f"tapir{uuid.uuid4().hex[:8]}"
    one = ToolviewServer.start(
        ["--redis", redis_server.url, "--search-memory", "64", "--port", "0"]
    )
    two = ToolviewServer.start(
        ["--redis", redis_server.url, "--search-memory", "64", "--port", "0"]
    )
    try:
        post(one, f"t-{word}", f"the {word} hides here")
        answer = found(two, word)  # built from the streams: two never saw the POST
        assert answer["supported"] is True and answer["index"] == "process"
        assert [r["threadId"] for r in answer["results"]] == [f"t-{word}"]  # type: ignore[attr-defined]
        post(one, f"t-{word}", f"and then a {later}")  # after two's index was built
        assert [r["threadId"] for r in found(two, later)["results"]] == [f"t-{word}"]  # type: ignore[attr-defined]
    finally:
        one.kill()
        two.kill()


def test_a_secret_is_never_indexed_nor_found(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        log = RedisLog(redis_server.url, prefix=f"rs{uuid.uuid4().hex}", search_bytes=SEARCH)
        await log.create_thread("a")
        await log.append(
            "a",
            [
                ToolCall("c1", "grep", {"pattern": "zebra", "token": GITHUB}),
                ToolResult("c1", "grep", "found zebra at line 3\n", complete=True, is_error=False),
            ],
        )
        assert (await log.search(GITHUB, 10)).hits == []
        assert (await log.search(GITHUB[4:], 10)).hits == []
        assert [h.field for h in (await log.search("redacted", 10)).hits] == ["args"]
        hit = next(h for h in (await log.search("zebra", 10)).hits if h.field == "output")
        assert hit.snippet[hit.start : hit.end] == "zebra"
        await log.aclose()

    asyncio.run(scenario())


def test_a_hostile_query_is_capped_and_stopped_at_its_deadline(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        log = RedisLog(redis_server.url, prefix=f"rs{uuid.uuid4().hex}", search_bytes=SEARCH)
        await log.create_thread("big")
        words = " ".join("abcdefghijklmnopqrstuvwxyz0123456789")
        await log.append("big", [Message("assistant", words)] * 2000)
        hostile = " ".join(list("abcdefghijklmnopqrstuvwxyz0123456789") * 13)[:1000]
        result = await log.search(hostile, 50)
        assert len(result.words) == MAX_TERMS and result.dropped == 36 - MAX_TERMS
        assert len(result.hits) == 50 and result.stopped is None
        late = await log.search(hostile, 50, seconds=0.0)  # no time at all: cut, not hung
        assert late.stopped == "time"
        await log.aclose()

    asyncio.run(scenario())


def test_a_redis_server_not_asked_to_keep_an_index_says_so(redis_server: RedisServer) -> None:
    """The default costs nothing: no index, no step on each append, and /api/search says how."""
    with ToolviewServer.start(["--redis", redis_server.url, "--port", "0"]) as server:
        answer = httpx.get(f"{server.url}/api/search", params={"q": "zebra"}).json()
    assert answer["supported"] is False and "--search-memory" in answer["reason"]
