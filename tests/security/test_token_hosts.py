"""``$TOOLVIEW_TOKEN`` goes to loopback, over https, or to a host the user named — nowhere else.

The decision (``remote.token.withheld_reason``) is tested over host names no
test can serve; then real processes (``toolview show URL``, ``toolview run
--to``, ``capture(to=)``) against a real listener on this machine's
non-loopback address, which must never see the token, and a real ``toolview
serve`` reached both ways: over loopback the token is sent, over the other
address only once ``$TOOLVIEW_TOKEN_HOSTS`` names it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from toolview_servers import ToolviewServer

from toolview.remote.token import withheld_reason
from toolview.safety.loopback import is_loopback

TOKEN = "tv-" + "s3cr3t" * 4


@pytest.mark.parametrize(
    ("base", "hosts", "sent"),
    [
        ("http://127.0.0.1:8765", "", True),
        ("http://127.0.0.2:8765", "", True),
        ("http://[::1]:8765", "", True),
        ("http://LOCALHOST:8765", "", True),
        ("https://toolview.example.com", "", True),
        ("http://toolview.example.com", "", False),
        ("http://192.0.2.7:8765", "", False),
        ("http://localhost.:8765", "", False),  # a name DNS answers, not a literal
        ("http://127.0.0.1.nip.io:8765", "", False),
        ("http://localhost.evil.example:8765", "", False),
        ("http://toolview.example.com:8765", "toolview.example.com", True),
        ("http://toolview.example.com:8765", "other.example, toolview.example.com:8765", True),
        ("http://toolview.example.com:9999", "toolview.example.com:8765", False),
        ("http://[fd00::2]:8765", "[fd00::2]:8765", True),
    ],
)
def test_who_may_receive_the_ambient_token(base: str, hosts: str, sent: bool) -> None:
    reason = withheld_reason(base, {"TOOLVIEW_TOKEN_HOSTS": hosts})
    assert (reason is None) is sent
    if reason is not None:
        assert "TOOLVIEW_TOKEN_HOSTS" in reason and "https" in reason


def _this_machine() -> str:
    """An address of this machine that is not loopback (skip without one)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
            address = str(probe.getsockname()[0])
        except OSError:
            address = "127.0.0.1"
    if is_loopback(address):
        pytest.skip("this machine has no non-loopback address to listen on")
    return address


class _Recorder(BaseHTTPRequestHandler):
    """Answers 401 to everything, keeping each request's Authorization header."""

    heard: list[str | None]

    def _answer(self) -> None:
        self.heard.append(self.headers.get("authorization"))
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        body = b'{"error": "a token is needed"}'
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str | None]]]:
    """A plain http server on this machine's non-loopback address: its URL, what it heard."""
    address = _this_machine()
    heard: list[str | None] = []
    handler = type("Handler", (_Recorder,), {"heard": heard})
    server = ThreadingHTTPServer((address, 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://{address}:{server.server_address[1]}", heard
    server.shutdown()
    server.server_close()


def _toolview(*words: str, **env: str) -> subprocess.CompletedProcess[str]:
    inherited = {k: v for k, v in os.environ.items() if k != "TOOLVIEW_TOKEN_HOSTS"}
    environment = {**inherited, "TOOLVIEW_TOKEN": TOKEN, **env}
    argv = [sys.executable, "-m", "toolview", *words]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=environment)


_CAPTURE = """
import sys, toolview
with toolview.capture(live=False, to=sys.argv[1], publish_timeout=0) as rec:
    rec.message("user", "hi")
"""


def test_plain_http_to_another_host_never_carries_the_token(
    listener: tuple[str, list[str | None]],
) -> None:
    base, heard = listener
    url = f"{base}/threads/t"
    runs = [
        _toolview("show", url),
        _toolview("run", "--to", url, "--publish-timeout", "0", "--", sys.executable, "-V"),
        subprocess.run(
            [sys.executable, "-c", _CAPTURE, url],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "TOOLVIEW_TOKEN": TOKEN},
        ),
    ]
    assert len(heard) >= 3 and heard == [None] * len(heard)  # requests came, no token in any
    for done in runs:
        assert f"$TOOLVIEW_TOKEN was not sent to {base}" in done.stderr, done.stderr
        assert "TOOLVIEW_TOKEN_HOSTS" in done.stderr and TOKEN not in done.stderr


def test_a_named_host_receives_the_token(listener: tuple[str, list[str | None]]) -> None:
    base, heard = listener
    host = base.removeprefix("http://")
    done = _toolview("show", f"{base}/threads/t", TOOLVIEW_TOKEN_HOSTS=host)
    assert done.returncode == 1 and "was not sent" not in done.stderr
    assert heard and heard == [f"Bearer {TOKEN}"] * len(heard)


def test_a_real_server_gets_the_token_over_loopback_and_a_named_host_only(
    tmp_path: Path,
) -> None:
    address = _this_machine()
    secret = tmp_path / "token"
    secret.write_text(TOKEN)
    secret.chmod(0o600)
    args = ["--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "log.db")]
    server = ToolviewServer.start([*args, "--token-file", str(secret)])
    try:
        local = f"http://127.0.0.1:{server.port}/threads/t"
        made = _toolview("run", "--to", local, "--", sys.executable, "-V")
        assert made.returncode == 0, made.stderr  # stored: the token crossed loopback
        assert _toolview("show", local).returncode == 0
        remote = f"http://{address}:{server.port}/threads/t"
        withheld = _toolview("show", remote)
        assert withheld.returncode == 1 and "was not sent" in withheld.stderr
        named = _toolview("show", remote, TOOLVIEW_TOKEN_HOSTS=address)
        assert named.returncode == 0, named.stderr
    finally:
        server.kill()


def test_a_token_passed_to_capture_names_its_server(
    listener: tuple[str, list[str | None]],
) -> None:
    base, heard = listener
    code = _CAPTURE.replace("publish_timeout=0", f"publish_timeout=0, token={TOKEN!r}")
    done = subprocess.run(
        [sys.executable, "-c", code, f"{base}/threads/t"],
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "TOOLVIEW_TOKEN"},
    )
    assert "was not sent" not in done.stderr
    assert heard and heard == [f"Bearer {TOKEN}"] * len(heard)


def test_a_library_caller_is_warned(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolview.remote.client import Publisher
    from toolview.remote.token import TokenWithheld

    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    monkeypatch.delenv("TOOLVIEW_TOKEN_HOSTS", raising=False)
    with pytest.warns(TokenWithheld, match="was not sent to http://192.0.2.7:8765"):
        Publisher("http://192.0.2.7:8765/threads/t").close()
