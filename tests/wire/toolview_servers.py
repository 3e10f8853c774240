"""Real servers for the wire and server tests: redis-server and ``toolview serve``.

Each is a real process on a loopback port, killed at teardown.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

if TYPE_CHECKING:
    from starlette.testclient import TestClient

T = TypeVar("T")

REPO = Path(__file__).resolve().parents[2]
SERVE_LINE = re.compile(r"serving on (http://\S+?)/?$")


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    """Until something accepts connections on ``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listening on port {port} after {timeout}s")


@dataclass
class RedisServer:
    """A redis-server process with its own directory, no persistence."""

    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, directory: Path) -> RedisServer:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        port = free_port()
        args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)]
        args += ["--save", "", "--appendonly", "no", "--protected-mode", "yes"]
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(port)
        return cls(process, port)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


@dataclass
class ToolviewServer:
    """``toolview serve`` in a subprocess; ``url`` is read from what it prints."""

    process: subprocess.Popen[str]
    url: str
    lines: list[str]

    @classmethod
    def start(
        cls, args: Sequence[str], timeout: float = 60.0, *, source: Path | None = None
    ) -> ToolviewServer:
        """Serve with ``args``; ``source``: another ``src`` directory to import toolview from."""
        command = [sys.executable, "-c", "from toolview.cli import main; main()", "serve", *args]
        env = None if source is None else {**os.environ, "PYTHONPATH": str(source)}
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if not os.environ.get("TOOLVIEW_SERVER_STDERR") else None,
            text=True,
            cwd=REPO,
            env=env,
        )
        assert process.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"toolview serve exited: {lines}")
            lines.append(line.rstrip("\n"))
            match = SERVE_LINE.search(lines[-1])
            if match:
                server = cls(process, match.group(1), lines)
                if {"--token", "--token-file"} & set(args) or os.environ.get("TOOLVIEW_TOKEN"):
                    lines.append(process.stdout.readline().rstrip("\n"))
                wait_for_port(int(server.url.rsplit(":", 1)[1]))
                return server
        raise TimeoutError("toolview serve printed no URL")

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)

    def __enter__(self) -> ToolviewServer:
        return self

    def __exit__(self, *_: object) -> None:
        """Killed on the way out, however the block ended."""
        self.kill()


def run_in_thread(function: Callable[[], T]) -> T:
    """Run ``function`` in a fresh thread and return (or raise) what it did.

    Why: a session-wide Playwright sync fixture elsewhere in the suite keeps an
    event loop running in the main thread, and neither ``asyncio.run`` nor a
    second Playwright may start under it. A fresh thread has no running loop.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = function()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return cast(T, box["value"])


def run_async(coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(coroutine())`` in a fresh thread (see ``run_in_thread``)."""
    return run_in_thread(lambda: asyncio.run(coroutine()))


class ServedApp:
    """An ASGI app on a real loopback port (uvicorn in a thread) for a ``with`` block."""

    def __init__(self, app: Any, port: int | None = None) -> None:
        import uvicorn

        self.app = app
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        wait_for_port(self.port)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


NDJSON = {"content-type": "application/x-ndjson"}  # what every POST of observations declares


def local_client(app: Any, **options: Any) -> TestClient:
    """Starlette's ``TestClient`` reaching ``app`` as a loopback client does.

    Why not the default: the server answers only to its own names (a
    ``Host`` of ``testserver`` is refused, as DNS rebinding needs), and an
    unsafe method needs a JSON body type (a cross-site form cannot send one).
    So requests go to ``http://127.0.0.1`` with ``Content-Type:
    application/json`` unless a test says otherwise.
    """
    from starlette.testclient import TestClient

    headers = {"content-type": "application/json", **options.pop("headers", {})}
    return TestClient(app, base_url="http://127.0.0.1", headers=headers, **options)
