"""Named tokens (``serve --tokens``): who sent a request, for the receipts and the synced machine.

Attacked as a way in: forged and near-miss tokens, a machine claiming another's
name, a client naming who decided, malformed token sets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from starlette.testclient import TestClient
from toolview_servers import local_client

from toolview.contract import RunStarted, ToolCall, ToolWaiting, encode_observation
from toolview.server.app import create_app
from toolview.server.guard.named_tokens import NamedTokens
from toolview.wire.log import ObservationLog

LogOpener = Callable[[], ObservationLog]
A = "a" * 20 + "-laptop-a-token-xyz"
B = "b" * 20 + "-laptop-b-token-xyz"
SHARED = "the-one-shared-token-of-this-server"
TOKENS = {"laptop-a": A, "laptop-b": B}


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture
def named(open_log: LogOpener) -> Iterator[TestClient]:
    app = create_app(open_log, token=SHARED, named=NamedTokens(TOKENS))
    with local_client(app) as client:
        yield client


FORGED = {
    "another's prefix": A[:-1],
    "a longer one": A + "x",
    "a name as token": "laptop-a",
    "two tokens": f"{A} {B}",
    "empty": "",
}


@pytest.mark.parametrize("token", FORGED.values(), ids=FORGED.keys())
def test_a_forged_token_is_refused(named: TestClient, token: str) -> None:
    assert named.get("/api/threads", headers=bearer(token)).status_code == 401
    assert named.post("/api/threads", json={"id": "x"}, headers=bearer(token)).status_code == 401


def test_every_named_token_and_the_shared_one_open_the_server(named: TestClient) -> None:
    for token in (A, B, SHARED):
        assert named.get("/api/threads", headers=bearer(token)).status_code == 200


def test_named_tokens_alone_guard_a_server(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, named=NamedTokens(TOKENS))) as client:
        assert client.get("/api/threads").status_code == 401
        assert client.get("/api/threads", headers=bearer("")).status_code == 401
        assert client.get("/api/threads", headers=bearer(B)).status_code == 200


def run_started(client: TestClient, token: str, thread: str, machine: str) -> None:
    headers = bearer(token)
    assert client.post("/api/threads", json={"id": thread}, headers=headers).status_code == 201
    body = encode_observation(RunStarted(run_id="r", machine=machine, user="ann"))
    response = client.post(f"/api/threads/{thread}/observations", content=body, headers=headers)
    assert response.status_code == 200, response.text


def machines(client: TestClient) -> dict[str, str]:
    listing = client.get("/api/threads?limit=100", headers=bearer(SHARED)).json()
    return {card["id"]: card["machine"] for card in listing["threads"]}


def test_one_machines_token_cannot_write_as_another_machine(named: TestClient) -> None:
    run_started(named, A, "claims-b", machine="laptop-b")  # laptop-a's token, b's name
    run_started(named, B, "honest-b", machine="laptop-b")
    run_started(named, A, "hostname", machine="a.example.org")  # sync's default: the hostname
    run_started(named, SHARED, "shared", machine="laptop-b")  # the shared token: as declared
    assert machines(named) == {
        "claims-b": "laptop-a",
        "honest-b": "laptop-b",
        "hostname": "laptop-a",
        "shared": "laptop-b",
    }


def test_a_receipt_says_the_name_of_the_token_that_decided(named: TestClient) -> None:
    seen = []
    for number, token in enumerate((A, B, SHARED)):
        thread = f"t{number}"
        headers = bearer(token)
        assert named.post("/api/threads", json={"id": thread}, headers=headers).status_code == 201
        asked = (
            ToolCall("c1", "Bash", {"command": "ls"}),
            ToolWaiting(tool_call_id="c1", tool_name="Bash", question="Run?"),
        )
        body = b"\n".join(encode_observation(o) for o in asked)
        named.post(f"/api/threads/{thread}/observations", content=body, headers=headers)
        decide = f"/api/threads/{thread}/calls/c1/decision"
        response = named.post(decide, json={"decision": "allow"}, headers=headers)
        assert response.status_code == 201, response.text
        seen.append(response.json()["decision"]["by"])
    assert seen == ["laptop-a", "laptop-b", "the server's token"]


BAD_SETS = {
    "short token": {"a": "x" * 31},
    "token with a space": {"a": "x" * 20 + " " + "y" * 20},
    "control character": {"a": "x" * 40 + "\x00"},
    "non-ASCII": {"a": "é" * 40},
    "bad name": {"a b": "x" * 40},
    "empty name": {"": "x" * 40},
    "long name": {"n" * 65: "x" * 40},
    "one token, two names": {"a": "x" * 40, "b": "x" * 40},
}


@pytest.mark.parametrize("tokens", BAD_SETS.values(), ids=BAD_SETS.keys())
def test_a_malformed_token_set_is_refused(tokens: dict[str, str]) -> None:
    with pytest.raises(ValueError) as refused:
        NamedTokens(tokens)
    assert "x" * 20 not in str(refused.value)  # never echoes a token


def test_a_token_matches_only_its_own_name() -> None:
    tokens = NamedTokens(TOKENS)
    assert [tokens.match(t.encode()) for t in (A, B, SHARED, "")] == [
        "laptop-a",
        "laptop-b",
        None,
        None,
    ]
