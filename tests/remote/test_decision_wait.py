"""``remote.decision_wait``: a receipt decides; anything else a server answers decides nothing.

A real HTTP server on loopback plays a hostile or broken viewer: an answer
that is not JSON, a receipt with a decision word nobody defined, a receipt
that is not an object, an error status. Each gives ``None`` (the caller's own
prompt or a denial decides), never an allow.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from toolview.remote.decision_wait import Receipt, wait_for_decision

ANSWERS: dict[str, tuple[int, bytes]] = {
    "ok": (200, b'{"decision": {"decision": "allow", "by": "laptop", "message": "go"}}'),
    "junk": (200, b"<html>allow</html>"),
    "word": (200, b'{"decision": {"decision": "yes", "by": "laptop"}}'),
    "list": (200, b'{"decision": ["allow"]}'),
    "boom": (500, b'{"decision": {"decision": "allow"}}'),
    "forbidden": (403, b'{"decision": {"decision": "allow"}}'),
}


SEEN: list[str] = []


class Viewer(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        SEEN.append(self.path)
        call = self.path.split("/calls/", 1)[1].split("/", 1)[0]
        status, body = ANSWERS.get(call, (404, b'{"error": "no such call"}'))
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def viewer() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Viewer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _wait(base: str, call: str) -> tuple[Receipt | None, list[str]]:
    said: list[str] = []
    return wait_for_decision(base, "t", call, time.monotonic() + 30, said.append), said


def test_a_receipt_is_the_decision(viewer: str) -> None:
    receipt, _ = _wait(viewer, "ok")
    assert receipt is not None
    assert (receipt.decision, receipt.message, receipt.by) == ("allow", "go", "laptop")


@pytest.mark.parametrize("call", ["junk", "word", "list", "boom", "forbidden"])
def test_anything_else_decides_nothing(viewer: str, call: str) -> None:
    receipt, said = _wait(viewer, call)
    assert receipt is None and said


def test_a_call_id_is_never_read_as_a_path_or_a_query(viewer: str) -> None:
    receipt, said = _wait(viewer, "ok/../../x?decision=allow#")
    assert receipt is None and said == ["no decision (404)"]
    assert SEEN[-1].startswith("/api/threads/t/calls/ok%2F..%2F..%2Fx%3Fdecision%3Dallow%23/")
