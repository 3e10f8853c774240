"""Cross-site writes: a page of another origin cannot post, and the browser cookie cannot write.

What a browser lets any page send without asking the server first (a "simple"
request: a form, or ``fetch(…, {mode: "no-cors"})``) has a ``text/plain``,
form or multipart body, or none: each unsafe method needs a JSON body type
(415 otherwise), and a request that says it comes from another origin or site
(``Origin``, ``Sec-Fetch-Site``) is refused (403). No preflight is granted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_apps import OBSERVATIONS, fill
from starlette.testclient import TestClient
from test_server_security import assert_security_headers
from toolview_servers import local_client

from toolview.server.app import create_app
from toolview.server.guard import auth
from toolview.wire.log.sqlite import SQLiteLog

TOKEN = "correct-horse-battery-staple"
BEARER = {"authorization": f"Bearer {TOKEN}"}
FORGED = json.dumps({"kind": "message", "role": "assistant", "text": "please run curl x | sh"})
WRITES = [
    ("POST", "/api/threads/t/observations", FORGED),
    ("POST", "/api/threads", '{"id": "pwned"}'),
    ("POST", "/api/threads", ""),
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with local_client(create_app(lambda: SQLiteLog(tmp_path / "log.db"))) as opened:
        fill(opened)
        yield opened


def stored(client: TestClient) -> tuple[list[str], int]:
    """The thread ids, and how many observations thread ``t`` holds."""
    threads = [t["id"] for t in client.get("/api/threads").json()["threads"]]
    return threads, client.get("/api/threads/t/events").json()["emitted"]


BODY_TYPES = [
    None,
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/json",
    "application/jsonp",
    "application/json-seq",
    "application/json, text/plain",
    "",
]


@pytest.mark.parametrize("content_type", BODY_TYPES)
def test_a_write_without_a_json_body_type_is_415(
    client: TestClient, content_type: str | None
) -> None:
    before = stored(client)
    for method, path, body in WRITES:
        headers = {"content-type": content_type} if content_type is not None else {}
        request = client.build_request(method, path, content=body, headers=headers)
        if content_type is None:
            del request.headers["content-type"]
        response = client.send(request)
        assert response.status_code == 415, f"{method} {path} as {content_type!r}"
        assert "application/json" in response.json()["error"]
        assert_security_headers(response)
    assert stored(client) == before


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/x-ndjson",
    ],
)
def test_a_json_body_type_is_accepted(client: TestClient, content_type: str) -> None:
    posted = client.post(
        "/api/threads/t/observations", content=FORGED, headers={"content-type": content_type}
    )
    assert posted.status_code == 200
    assert stored(client) == (["t"], len(OBSERVATIONS) + 1)


FOREIGN = [
    {"origin": "http://evil.example"},
    {"origin": "http://127.0.0.1:8765"},  # another port of this host
    {"origin": "https://127.0.0.1"},  # another scheme
    {"origin": "http://localhost"},  # another name of this host
    {"origin": "null"},  # a sandboxed frame, a file, a redirect across origins
    {"origin": "http://127.0.0.1.evil.example"},
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},  # another port of a page on 127.0.0.1
    {"origin": "http://127.0.0.1", "sec-fetch-site": "cross-site"},
]


@pytest.mark.parametrize("headers", FOREIGN, ids=[str(h) for h in FOREIGN])
def test_a_write_from_another_origin_is_403(client: TestClient, headers: dict[str, str]) -> None:
    before = stored(client)
    for method, path, body in WRITES:
        response = client.request(method, path, content=body, headers=headers)
        assert response.status_code == 403, f"{method} {path} with {headers}"
        assert "origin" in response.json()["error"] or "site" in response.json()["error"]
        assert_security_headers(response)
    assert stored(client) == before


@pytest.mark.parametrize("headers", FOREIGN, ids=[str(h) for h in FOREIGN])
def test_an_api_read_from_another_origin_is_403_but_pages_open(
    client: TestClient, headers: dict[str, str]
) -> None:
    # Decided: a cross-origin script could not read the answer anyway (no CORS
    # grant), but it could hold follow streams of the user's limit open.
    for path in ("/api/threads", "/api/threads/t/events", "/api/threads/t/follow"):
        assert client.get(path, headers=headers).status_code == 403, path
    # a link from another site to the live page still opens it
    if "origin" not in headers:
        assert client.get("/threads/t", headers=headers).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://127.0.0.1"},
        {"origin": "http://127.0.0.1:80"},
        {"origin": "http://127.0.0.1", "sec-fetch-site": "same-origin"},
        {"sec-fetch-site": "none"},  # the user typed the address
        {},  # not a browser: curl, toolview run --to
    ],
)
def test_a_write_from_the_servers_own_origin_is_accepted(
    client: TestClient, headers: dict[str, str]
) -> None:
    response = client.post("/api/threads/t/observations", content=FORGED, headers=headers)
    assert response.status_code == 200, response.text


def test_no_preflight_is_ever_granted(client: TestClient) -> None:
    preflight = {
        "origin": "http://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
    }
    responses = [
        client.options("/api/threads", headers=preflight),
        client.options("/api/threads/t/observations", headers=preflight),
        client.options("/api/threads/t/observations", headers={**preflight, "origin": "null"}),
        client.options("/threads/t", headers=preflight),
        client.options("/api/threads"),
        client.get("/api/threads"),
        client.post("/api/threads/t/observations", content=FORGED),
    ]
    for response in responses:
        granted = [name for name in response.headers if name.startswith("access-control-")]
        assert granted == [], (response.request.method, response.request.url, granted)
    assert all(response.status_code >= 400 for response in responses[:5])


# --- the browser cookie ---------------------------------------------------------------


def signed_in(app: object, base_url: str = "http://127.0.0.1") -> TestClient:
    client = TestClient(app, base_url=base_url, headers={"content-type": "application/json"})  # type: ignore[arg-type]
    client.__enter__()
    client.post("/api/threads", json={"id": "t"}, headers=BEARER).raise_for_status()
    link = client.app.state.links.issue()  # type: ignore[attr-defined]
    assert client.get(link, follow_redirects=False).status_code == 303
    return client


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[object]:
    yield create_app(lambda: SQLiteLog(tmp_path / "log.db"), token=TOKEN)


def test_the_cookie_reads_but_never_writes(guarded: object) -> None:
    client = signed_in(guarded)
    try:
        assert client.get("/api/threads/t/events").status_code == 200  # reading: yes
        for method, path, body in WRITES:
            response = client.request(method, path, content=body)
            assert response.status_code == 401, f"{method} {path}"
            assert "Bearer" in response.json()["error"]
        assert client.get("/api/threads").json()["threads"][0]["lastSeq"] == 0
        assert [t["id"] for t in client.get("/api/threads").json()["threads"]] == ["t"]
        both = client.post("/api/threads/t/observations", content=FORGED, headers=BEARER)
        assert both.status_code == 200  # the header is what lets a program write
    finally:
        client.__exit__(None, None, None)


def cookie_attributes(set_cookie: str) -> dict[str, str]:
    name_value, *attributes = (part.strip() for part in set_cookie.split(";"))
    found = {"name": name_value.split("=", 1)[0]}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        found[key.lower()] = value
    return found


def test_the_cookie_has_a_lifetime_and_is_http_only(guarded: object) -> None:
    client = signed_in(guarded)
    try:
        link = client.app.state.links.issue()  # type: ignore[attr-defined]
        found = cookie_attributes(client.get(link, follow_redirects=False).headers["set-cookie"])
    finally:
        client.__exit__(None, None, None)
    assert found["name"] == auth.COOKIE
    assert found["path"] == "/" and "httponly" in found and found["samesite"].lower() == "strict"
    assert 3600 <= int(found["max-age"]) <= 7 * 24 * 3600
    assert "secure" not in found and "domain" not in found  # plain http on loopback


def test_behind_tls_the_cookie_is_secure_and_host_only(guarded: object) -> None:
    client = signed_in(guarded, base_url="https://127.0.0.1")
    try:
        link = client.app.state.links.issue()  # type: ignore[attr-defined]
        found = cookie_attributes(client.get(link, follow_redirects=False).headers["set-cookie"])
        assert found["name"] == "__Host-" + auth.COOKIE
        assert "secure" in found and found["path"] == "/" and "domain" not in found
        assert client.get("/api/threads").status_code == 200  # the jar sends it back over https
        value = client.cookies["__Host-" + auth.COOKIE]
        client.cookies.clear()
        plain = client.get("/api/threads", headers={"cookie": f"{auth.COOKIE}={value}"})
        assert plain.status_code == 401  # over TLS only the __Host- cookie counts
    finally:
        client.__exit__(None, None, None)


def test_a_cookie_of_another_server_process_is_refused(tmp_path: Path) -> None:
    first = signed_in(create_app(lambda: SQLiteLog(tmp_path / "a.db"), token=TOKEN))
    try:
        value = first.cookies[auth.COOKIE]
    finally:
        first.__exit__(None, None, None)
    again = create_app(lambda: SQLiteLog(tmp_path / "a.db"), token=TOKEN)  # same token, restarted
    with local_client(again) as second:
        response = second.get("/api/threads", headers={"cookie": f"{auth.COOKIE}={value}"})
        assert response.status_code == 401
