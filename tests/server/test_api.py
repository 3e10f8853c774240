"""The HTTP API in-process (Starlette's TestClient), on both log backends."""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.testclient import TestClient
from toolview_servers import local_client

from toolview.server.app import create_app
from toolview.wire.log import ObservationLog

LogOpener = Callable[[], ObservationLog]  # the open_log fixture's type

CALL = {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {"command": "ls"}}
PARTIAL = {
    "kind": "tool-result",
    "toolCallId": "c1",
    "toolName": "shell",
    "text": "a\n",
    "complete": False,
    "isError": False,
}
FINAL = {
    **PARTIAL,
    "text": "a\nb\n",
    "complete": True,
    "descriptor": {"kind": "shell", "props": {}},
}


def jsonl(*observations: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in observations)


def test_create_and_list_threads(client: TestClient) -> None:
    created = client.post("/api/threads")
    assert created.status_code == 201
    thread_id = created.json()["id"]
    named = client.post("/api/threads", json={"id": "build-1"})
    assert named.json() == {"id": "build-1", "created": True}
    assert client.post("/api/threads", json={"id": "build-1"}).status_code == 200
    listed = [t["id"] for t in client.get("/api/threads").json()["threads"]]
    assert listed == [thread_id, "build-1"] or sorted(listed) == sorted([thread_id, "build-1"])


def test_a_bad_thread_id_is_refused(client: TestClient) -> None:
    response = client.post("/api/threads", json={"id": "../etc"})
    assert response.status_code == 400 and "thread id" in response.json()["error"]


def test_post_json_lines_and_a_json_array(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    first = client.post("/api/threads/t/observations", content=jsonl(CALL, PARTIAL))
    assert first.json() == {"seqs": [1, 2]}
    second = client.post("/api/threads/t/observations", json=[FINAL])
    assert second.json() == {"seqs": [3]}


def test_one_bad_line_rejects_the_whole_request_naming_line_and_path(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    bad = {**PARTIAL, "complete": "no"}
    response = client.post("/api/threads/t/observations", content=jsonl(CALL, PARTIAL, bad))
    assert response.status_code == 400
    message = response.json()["error"]
    assert message.startswith("line 3: $.complete:"), message
    assert client.get("/api/threads/t/events").json()["events"] == []


def test_a_bad_array_item_names_its_index_and_path(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    response = client.post("/api/threads/t/observations", json=[CALL, {"kind": "tool-call"}])
    assert response.status_code == 400
    assert response.json()["error"].startswith("item 2: $[1]:")


def test_malformed_json_and_an_empty_body_are_clear_errors(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    assert (
        "malformed JSON" in client.post("/api/threads/t/observations", content="{").json()["error"]
    )
    assert client.post("/api/threads/t/observations", content="\n").status_code == 400


def test_a_body_over_the_limit_gets_413_and_nothing_is_stored(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, body_limit=1000)) as client:
        client.post("/api/threads", json={"id": "t"})
        big = jsonl(*[CALL] * 20)
        assert client.post("/api/threads/t/observations", content=big).status_code == 413
        assert client.get("/api/threads/t/events").json()["emitted"] == 0


def test_unknown_threads_are_404(client: TestClient) -> None:
    assert client.post("/api/threads/nope/observations", content=jsonl(CALL)).status_code == 404
    assert client.get("/api/threads/nope/events").status_code == 404
    assert client.get("/api/threads/nope/follow").status_code == 404
    assert client.get("/api/threads/nope/agui").status_code == 404


def test_events_show_partials_with_what_they_were_stored_as(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    more = {**PARTIAL, "text": "a\nb"}
    client.post("/api/threads/t/observations", content=jsonl(CALL, PARTIAL, more, FINAL))
    body = client.get("/api/threads/t/events").json()
    assert body["emitted"] == 4
    assert [e.get("stored") for e in body["events"]] == [None, "reset", "append", None]
    assert body["events"][2]["observation"]["text"] == "a\n"  # running: "b" may go on
    assert body["sent"] == {"frames": 0, "bytes": 0, "byMode": {}, "tail": []}


def test_events_are_redacted(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    secret = "AKIAIOSFODNN7EXAMPLE"
    client.post("/api/threads/t/observations", content=jsonl({**FINAL, "text": secret}))
    assert secret not in client.get("/api/threads/t/events").text


def test_agui_as_json_and_as_sse(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    client.post("/api/threads/t/observations", content=jsonl(CALL, PARTIAL, FINAL))
    events = client.get("/api/threads/t/agui?format=json").json()
    assert [e["type"] for e in events] == [
        "RUN_STARTED",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_RESULT",
        "RUN_FINISHED",
    ]
    assert events[4]["metadata"]["toolview:result"] == {"kind": "shell", "props": {}}
    stream = client.get("/api/threads/t/agui")
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.text.count("data: ") == 6


def test_a_bad_mode_or_last_event_id_is_a_clear_400(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    assert "mode" in client.get("/api/threads/t/follow?mode=fast").json()["error"]
    response = client.get("/api/threads/t/follow", headers={"Last-Event-ID": "abc"})
    assert response.status_code == 400 and "Last-Event-ID" in response.json()["error"]


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/api/threads"), client.get("/api/threads/nope/events")):
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def stored_seqs(client: TestClient, thread: str) -> list[int]:
    return [e["seq"] for e in client.get(f"/api/threads/{thread}/events").json()["events"]]


def test_a_repeated_idempotency_key_replays_the_seqs_and_stores_nothing(
    client: TestClient,
) -> None:
    client.post("/api/threads", json={"id": "t"})
    headers = {"idempotency-key": "batch-1"}
    first = client.post("/api/threads/t/observations", content=jsonl(CALL), headers=headers)
    assert first.status_code == 200 and first.json() == {"seqs": [1]}
    assert "idempotent-replayed" not in first.headers
    again = client.post("/api/threads/t/observations", json=[CALL], headers=headers)  # as array
    assert again.status_code == 200 and again.json() == {"seqs": [1]}
    assert again.headers["idempotent-replayed"] == "true"
    assert stored_seqs(client, "t") == [1]


def test_a_key_reused_for_another_batch_is_422_and_stores_nothing(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    headers = {"idempotency-key": "batch-1"}
    client.post("/api/threads/t/observations", content=jsonl(CALL), headers=headers)
    other = client.post("/api/threads/t/observations", content=jsonl(FINAL), headers=headers)
    assert other.status_code == 422
    assert "already used on this thread for a different batch" in other.json()["error"]
    assert stored_seqs(client, "t") == [1]


def test_idempotency_keys_are_per_thread(client: TestClient) -> None:
    for thread in ("a", "b"):
        client.post("/api/threads", json={"id": thread})
        response = client.post(
            f"/api/threads/{thread}/observations",
            content=jsonl(CALL),
            headers={"idempotency-key": "same"},
        )
        assert response.status_code == 200 and "idempotent-replayed" not in response.headers
        assert stored_seqs(client, thread) == [1]


def test_a_malformed_idempotency_key_is_400_and_stores_nothing(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    url = "/api/threads/t/observations"
    for key in ["", "has space", "x" * 129, "tab\tkey"]:
        response = client.post(url, content=jsonl(CALL), headers={"idempotency-key": key})
        assert response.status_code == 400, key
        assert "Idempotency-Key must be 1-128 visible ASCII" in response.json()["error"]
    twice = client.post(
        url, content=jsonl(CALL), headers=[("idempotency-key", "a"), ("idempotency-key", "b")]
    )
    assert twice.status_code == 400 and "one Idempotency-Key" in twice.json()["error"]
    non_ascii = client.post(
        url, content=jsonl(CALL), headers=[(b"idempotency-key", "clé".encode("latin-1"))]
    )
    assert non_ascii.status_code == 400
    assert stored_seqs(client, "t") == []
