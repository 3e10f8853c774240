"""One word finds the same calls on both search routes: the thread's and ``/api/search``.

Both read ``wire.log.searchable``: an aborted call's output is found on both
(the index used to skip it), a word past a field's ``SEARCH_CHARS`` on neither
(the thread search used to find it).
"""

from __future__ import annotations

from starlette.testclient import TestClient

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolResult,
    encode_observation,
)
from toolview.wire.log.searchable import SEARCH_CHARS


def post(client: TestClient, thread: str, observations: list[Observation]) -> None:
    client.post("/api/threads", json={"id": thread})
    body = "\n".join(encode_observation(o).decode() for o in observations)
    headers = {"content-type": "application/x-ndjson"}
    answer = client.post(f"/api/threads/{thread}/observations", content=body, headers=headers)
    assert answer.status_code == 200, answer.text


def thread_calls(client: TestClient, word: str) -> set[str]:
    answer = client.get("/api/threads/t/search", params={"q": word})
    assert answer.status_code == 200, answer.text
    return {match["toolCallId"] for match in answer.json()["matches"]}


def indexed_calls(client: TestClient, word: str) -> set[str]:
    answer = client.get("/api/search", params={"q": word}).json()
    assert answer["supported"] is True, answer  # both logs: FTS5, or the Redis log's own index
    return {hit["toolCallId"] for hit in answer["results"] if hit["threadId"] == "t"}


def test_a_word_finds_the_same_calls_on_both_routes(client: TestClient) -> None:
    long = "x" * (SEARCH_CHARS - 12) + " nearword" + " " * 10 + "farword\n"  # farword: past the cut
    post(
        client,
        "t",
        [
            RunStarted("r"),
            ToolCall("done", "cat", {"path": "big.log"}),
            ToolResult("done", "cat", long, complete=True, is_error=False),
            ToolCall("cut", "shell", {"command": "make"}),
            ToolResult("cut", "shell", "building zebraword\n", complete=False, is_error=False),
            RunEnded("r", "aborted", reason="interrupted"),
        ],
    )
    expected = {"zebraword": {"cut"}, "nearword": {"done"}, "farword": set()}
    for word, calls in expected.items():
        assert thread_calls(client, word) == calls, word
        assert indexed_calls(client, word) == calls, word


def test_a_hit_says_its_sessions_title_as_the_index_does(client: TestClient) -> None:
    """The index draws one page: a hit's thread may be on none, so the hit carries its title."""
    post(client, "claude-t", [Message("user", "Fix the login"), ToolCall("c", "shell", {})])
    post(client, "claude-t", [ToolResult("c", "shell", "gnuword\n", True, False)])
    answer = client.get("/api/search?q=gnuword").json()
    (card,) = client.get("/api/threads").json()["threads"]
    assert [hit["title"] for hit in answer["results"]] == [card["title"]] == ["Fix the login"]
