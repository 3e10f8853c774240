"""``toolview serve``'s connection limits in a real server process.

The open-files soft limit is raised to the hard limit at start (read back
from ``/proc/PID/limits``), and ``--max-connections`` / ``--follow-total``
reach the server.
"""

from __future__ import annotations

import re
import resource
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import REPO, SERVE_LINE, wait_for_port

from toolview.cli import main

_LOWERED = 256  # the soft limit the server process starts with


def _serve(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    """``toolview serve`` started with its soft open-files limit lowered first."""
    code = (
        "import resource, sys\n"
        "_, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({_LOWERED}, hard))\n"
        "from toolview.cli import main\n"
        "sys.exit(main())\n"
    )
    command = [sys.executable, "-c", code, "serve", "--port", "0", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert process.stdout is not None
    for line in process.stdout:
        match = SERVE_LINE.search(line.rstrip("\n"))
        if match:
            url = match.group(1)
            wait_for_port(int(url.rsplit(":", 1)[1]))
            return process, url
    process.kill()
    raise AssertionError("toolview serve printed no URL")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    args = ["--db", str(tmp_path / "x.db"), "--max-connections", "4", "--follow-total", "3"]
    process, url = _serve(args)
    yield process, url
    process.kill()
    process.wait(timeout=30)


def test_the_open_files_limit_is_raised_to_the_hard_limit(
    served: tuple[subprocess.Popen[str], str],
) -> None:
    process, _ = served
    limits = Path(f"/proc/{process.pid}/limits").read_text()
    soft, hard = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits).groups()  # type: ignore[union-attr]
    assert int(hard) == resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    assert int(soft) == int(hard) > _LOWERED


def test_max_connections_and_follow_total_reach_the_server(
    served: tuple[subprocess.Popen[str], str],
) -> None:
    _, url = served  # --max-connections 4 --follow-total 3
    httpx.post(f"{url}/api/threads", json={"id": "t"}).raise_for_status()
    port = int(url.rsplit(":", 1)[1])
    follow = f"GET /api/threads/t/follow HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    post = f"POST /api/threads HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 50\r\n"
    post += "Content-Type: application/json\r\n"
    post += "Expect: 100-continue\r\n\r\n"
    opened: list[socket.socket] = []

    def ask(source: str, request: bytes) -> bytes:
        sock = socket.create_connection(("127.0.0.1", port), 30, (source, 0))
        opened.append(sock)
        sock.sendall(request)
        return sock.recv(4096)

    try:
        statuses = [ask(f"127.0.0.{n}", follow)[:12] for n in (2, 3, 4, 5)]
        assert statuses == [b"HTTP/1.1 200"] * 3 + [b"HTTP/1.1 429"]  # --follow-total 3
        # the 429's connection is idle: the 5th takes its place; a body under way cannot be
        continued = ask("127.0.0.6", post.encode())  # (100 Continue: the app reads the body)
        assert continued.startswith(b"HTTP/1.1 100"), continued
        answer = ask("127.0.0.7", follow)
        assert answer.startswith(b"HTTP/1.1 503"), answer  # --max-connections 4
    finally:
        for sock in opened:
            sock.close()


@pytest.mark.parametrize("flag", ["--max-connections", "--follow-total"])
def test_bad_connection_limits_are_clear_argparse_errors(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", flag, "0"])
    assert exit_info.value.code == 2
    assert f"argument {flag}" in capsys.readouterr().err
