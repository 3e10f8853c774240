"""Token access: header or a cookie from a one-time link; constant-time compares."""

from __future__ import annotations

from collections.abc import Callable

from starlette.testclient import TestClient
from toolview_servers import local_client

from toolview.server.app import create_app
from toolview.server.guard.auth import COOKIE
from toolview.wire.log import ObservationLog

LogOpener = Callable[[], ObservationLog]  # the open_log fixture's type


def test_without_the_token_every_api_and_page_request_is_refused(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, token="s3cret")) as client:
        for path in ("/api/threads", "/api/threads/x/follow", "/", "/threads/x"):
            response = client.get(path)
            assert response.status_code == 401, path
            assert "content-security-policy" in response.headers
        assert (
            client.get("/api/threads", headers={"authorization": "Bearer nope"}).status_code == 401
        )


def test_the_bearer_header_lets_a_program_in(open_log: LogOpener) -> None:
    with local_client(create_app(open_log, token="s3cret")) as client:
        response = client.get("/api/threads", headers={"authorization": "Bearer s3cret"})
        assert response.status_code == 200


def test_a_one_time_link_sets_a_cookie_and_works_only_once(open_log: LogOpener) -> None:
    app = create_app(open_log, token="s3cret")
    with local_client(app) as client:
        link = app.state.links.issue()
        response = client.get(link, follow_redirects=False)
        assert response.status_code == 303
        cookie = response.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "s3cret" not in cookie
        assert client.get("/api/threads").status_code == 200  # the cookie jar carries it
        with local_client(app) as stranger:
            assert stranger.get(link).status_code == 403


def test_no_token_means_open_access_on_loopback(client: TestClient) -> None:
    assert client.get("/api/threads").status_code == 200


def test_a_sign_in_link_with_non_ascii_characters_is_refused_not_a_500(
    open_log: LogOpener,
) -> None:
    app = create_app(open_log, token="s3cret")
    with local_client(app, raise_server_exceptions=False) as client:
        link = app.state.links.issue()
        response = client.get("/auth/%C3%A9t%C3%A9")
        assert response.status_code == 403
        assert client.get(link, follow_redirects=False).status_code == 303  # still good


def test_a_cookie_planted_by_another_port_does_not_hide_the_real_one(
    open_log: LogOpener,
) -> None:
    """Cookies ignore ports: a page on another port of the host can set a
    ``toolview_token`` of its own (with a longer path, the browser sends it
    first). The real cookie beside it still signs the user in."""
    app = create_app(open_log, token="s3cret")
    with local_client(app) as client:
        signed_in = client.get(app.state.links.issue(), follow_redirects=False)
        good = signed_in.cookies[COOKIE]
        client.cookies.clear()
        for planted in (f"{COOKIE}=junk; {COOKIE}={good}", f"{COOKIE}={good}; {COOKIE}=junk"):
            response = client.get("/api/threads", headers={"cookie": planted})
            assert response.status_code == 200, planted
        assert client.get("/api/threads", headers={"cookie": f"{COOKIE}=junk"}).status_code == 401
