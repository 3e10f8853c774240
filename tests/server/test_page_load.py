"""A big page being viewed does not hold up other requests (a ratio, not a timing).

``toolview serve`` runs in a subprocess on a real SQLite log holding a thread
of mixed calls. Trivial requests are timed alone, then while a cold view of
the thread's page is in flight: every request sent after the page request and
before the page's first byte came back (the server was still rendering it)
counts, however long it took. Before pieces were rendered in processes, the
render ran in a worker thread and a trivial request took ~90× its idle time
(the interpreter lock); the summary of the same thread waited for the whole
render (the projection's lock). The bound here is generous (the machine is
shared); ``bench/page_fragments.py`` prints the figure.
"""

from __future__ import annotations

import os
import select
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from toolview_servers import NDJSON, ToolviewServer

from toolview.contract import Descriptor, Observation, ToolCall, ToolResult, encode_observation

CALLS = 300
BOUND = 5.0  # the target is 3×; the machine running the suite is shared
CODE = "\n".join(f"def f{i}(x):\n    return x * {i}  # line {i}" for i in range(60))


def mixed_call(n: int) -> list[Observation]:
    """A shell, file, diff or json call of a few KB."""
    call, kind = f"c{n}", n % 4
    if kind == 0:
        out = "\n".join(f"line {j} of call {n}" for j in range(150))
        props: dict[str, object] = {"command": "ls", "exitCode": 0, "stdout": out, "stderr": ""}
        text, descriptor = out, Descriptor("shell", props)
    elif kind == 1:
        text, descriptor = CODE, Descriptor("file", {"path": "f.py", "content": CODE})
    elif kind == 2:
        text = "--- a/x\n+++ b/x\n@@ -1,60 +1,60 @@\n" + "\n".join(
            f"-old {j}\n+new {j}" for j in range(60)
        )
        descriptor = Descriptor("diff", {"diff": text, "path": "x"})
    else:
        value = [{"id": j, "name": f"item {j}"} for j in range(30)]
        text, descriptor = str(value), Descriptor("json", {"value": value})
    result = ToolResult(call, "tool", text, True, False, descriptor)
    return [ToolCall(call, "tool", {"n": n}), result]


def get(port: int, path: str) -> tuple[float, bytes]:
    """One GET on a fresh connection, acknowledged at once (no delayed-ACK wait)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        start = time.perf_counter()
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
        )
        data = b""
        while chunk := sock.recv(1 << 16):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
            data += chunk
        elapsed = time.perf_counter() - start
    assert data.startswith(b"HTTP/1.1 200"), data[:200]
    return elapsed, data


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    try:
        with httpx.Client(base_url=started.url, timeout=120) as client:
            client.post("/api/threads", json={"id": "t"}).raise_for_status()
            body = b"\n".join(encode_observation(o) for n in range(CALLS) for o in mixed_call(n))
            client.post("/api/threads/t/observations", content=body, headers=NDJSON)
            client.get("/threads/t/summary").raise_for_status()  # projected, nothing rendered
        yield started
    finally:
        started.kill()


def test_trivial_requests_keep_their_pace_while_a_big_page_renders(
    server: ToolviewServer,
) -> None:
    port = server.port
    idle = {path: [get(port, path)[0] for _ in range(40)] for path in PATHS}
    sent, answered = threading.Event(), threading.Event()

    def view_page() -> None:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            head = f"GET /threads/t HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
            sock.sendall(head.encode())
            sent.set()
            sock.recv(1)
            answered.set()
            while sock.recv(1 << 16):
                pass

    viewer = threading.Thread(target=view_page)
    viewer.start()
    sent.wait()
    during: dict[str, list[float]] = {path: [] for path in PATHS}
    while not answered.is_set():
        for path in PATHS:  # sent while the page was still being drawn: counted, however long
            during[path].append(get(port, path)[0])
    viewer.join()
    for path in PATHS:
        ratio = statistics.median(during[path]) / statistics.median(idle[path])
        assert ratio <= BOUND, f"{path}: {ratio:.1f}× its idle latency while the page renders"
        assert len(during[path]) >= 10, f"the page rendered too fast to measure: {during}"


PATHS = ("/static/fragments.css", "/threads/t/summary")


def test_the_render_processes_exit_when_the_server_is_killed(server: ToolviewServer) -> None:
    """A server killed outright runs no clean-up: its render processes must still go."""
    get(server.port, "/threads/t")  # rendered in the render processes, which now exist
    pid = server.process.pid
    children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    watched = [os.pidfd_open(child) for child in children]  # readable once the process exits
    assert watched, "the page was rendered without starting a render process"
    server.kill()
    try:
        for handle in watched:
            exited, _, _ = select.select([handle], [], [], 60)
            assert exited, "a render process outlived its killed server"
    finally:
        for handle in watched:
            os.close(handle)
