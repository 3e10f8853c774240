"""The live page's token: a signed-in browser decides with it, and nothing else does.

Hostile on purpose: the cookie alone, a forged token, a token drawn for another
browser's cookie (a replay), two token headers, the token used for another
write, a token from before a restart — each is refused and nothing is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient
from test_decisions import BEARER, DECIDE, decisions_in_log, seed
from toolview_servers import local_client

from toolview.server.app import create_app
from toolview.wire.log import ObservationLog

LogOpener = Callable[[], ObservationLog]
PAGE_TOKEN_HEADER = "x-toolview-page-token"  # spelled here: the tests hold the name fixed
OWN = {"origin": "http://127.0.0.1", "sec-fetch-site": "same-origin"}  # what Chromium sends
_META = re.compile(r'<meta name="toolview-page-token" content="([0-9a-f]{64})">')


def page_token(client: TestClient, **headers: str) -> str | None:
    """The token the thread page carries, as ``decide.js`` reads it (``None``: none)."""
    page = client.get("/threads/t", headers=headers)
    assert page.status_code == 200, page.text
    found = _META.findall(page.text)
    assert len(found) <= 1
    return found[0] if found else None


@contextmanager
def signed_in(open_log: LogOpener) -> Iterator[TestClient]:
    """A token server with thread ``t`` waiting, and a client signed in by its link."""
    app = create_app(open_log, token="s3cret")
    with local_client(app) as client:
        seed(client)
        assert client.get(app.state.links.issue(), follow_redirects=False).status_code == 303
        yield client


def test_a_signed_in_page_decides_with_its_token_and_the_receipt_says_so(
    open_log: LogOpener,
) -> None:
    with signed_in(open_log) as client:
        token = page_token(client)
        assert token is not None
        headers = {**OWN, PAGE_TOKEN_HEADER: token}
        response = client.post(DECIDE, json={"decision": "deny", "message": "no"}, headers=headers)
        assert response.status_code == 201, response.text
        assert response.json()["decision"]["by"] == "a signed-in page"
        assert [d["message"] for d in decisions_in_log(client)] == ["no"]


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: {},  # the cookie alone: what any page of this host can make it send
        lambda token: {PAGE_TOKEN_HEADER: "0" * 64},  # a forged one
        lambda token: {PAGE_TOKEN_HEADER: token[:-1]},  # cut
        lambda token: {PAGE_TOKEN_HEADER: token.upper()},  # nearly: its hex in capitals
    ],
)
def test_a_missing_or_forged_page_token_is_403_and_nothing_is_written(
    open_log: LogOpener, forge: Callable[[str], dict[str, str]]
) -> None:
    with signed_in(open_log) as client:
        token = page_token(client)
        assert token is not None
        response = client.post(DECIDE, json={"decision": "allow"}, headers={**OWN, **forge(token)})
        assert response.status_code == 403, response.text
        assert decisions_in_log(client) == []
        assert client.get("/api/threads/t/waiting").json()["waiting"] != []


def test_a_token_is_bound_to_its_cookie_and_sent_once(open_log: LogOpener) -> None:
    """Another browser's token (its own cookie) does not decide for this one; nor do two."""
    with signed_in(open_log) as client:
        mine = page_token(client)
        assert mine is not None
        other = client.app.state.links.issue()  # type: ignore[attr-defined]
        client.cookies.clear()
        assert client.get(other, follow_redirects=False).status_code == 303
        theirs = page_token(client)  # this client is now the other browser
        assert theirs is not None and theirs != mine
        headers = [("content-type", "application/json"), ("origin", "http://127.0.0.1")]
        for sent in ([(PAGE_TOKEN_HEADER, mine)], [(PAGE_TOKEN_HEADER, theirs)] * 2):
            response = client.post(DECIDE, content=b'{"decision":"allow"}', headers=headers + sent)
            assert response.status_code == 403, sent
        assert decisions_in_log(client) == []
        right = client.post(DECIDE, json={"decision": "allow"}, headers={PAGE_TOKEN_HEADER: theirs})
        assert right.status_code == 201  # and its own, once, does


def test_the_page_token_writes_nothing_but_a_decision(open_log: LogOpener) -> None:
    with signed_in(open_log) as client:
        token = page_token(client)
        assert token is not None
        headers = {**OWN, PAGE_TOKEN_HEADER: token}
        assert client.post("/api/threads", json={"id": "u"}, headers=headers).status_code == 401
        body = b'{"kind":"tool-decision","toolCallId":"c1","decision":"allow"}'
        sent = client.post("/api/threads/t/observations", content=body, headers=headers)
        assert sent.status_code == 401  # the bearer writes there, and only the bearer
        assert decisions_in_log(client) == []


def test_a_page_read_with_the_bearer_has_no_token_to_leak(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, token="s3cret")) as client:
        seed(client)
        assert page_token(client, **BEARER) is None


@pytest.mark.parametrize(("listening", "drawn"), [("127.0.0.1", True), ("0.0.0.0", False)])
def test_a_tokenless_loopback_page_decides_with_its_token_alone(
    open_log: LogOpener, listening: str, drawn: bool
) -> None:
    """Loopback: the page carries a token and a browser decides only with it (a program
    without a browser's headers still may); elsewhere no page may decide at all."""
    with local_client(create_app(open_log, listening=listening)) as client:
        seed(client)
        token = page_token(client)
        assert (token is not None) == drawn
        if token is None:
            return
        allow = {"decision": "allow"}
        assert client.post(DECIDE, json=allow, headers=OWN).status_code == 403
        wrong = {**OWN, PAGE_TOKEN_HEADER: "0" * 64}
        assert client.post(DECIDE, json=allow, headers=wrong).status_code == 403
        assert decisions_in_log(client) == []
        right = {**OWN, PAGE_TOKEN_HEADER: token}
        assert client.post(DECIDE, json=allow, headers=right).status_code == 201
        assert len(decisions_in_log(client)) == 1


def test_a_restart_voids_every_page_token(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, listening="127.0.0.1")) as client:
        seed(client)
        before = page_token(client)
    with local_client(create_app(open_log, listening="127.0.0.1")) as client:
        assert before is not None and page_token(client) != before
        headers = {**OWN, PAGE_TOKEN_HEADER: before}
        assert client.post(DECIDE, json={"decision": "allow"}, headers=headers).status_code == 403
