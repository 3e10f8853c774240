"""The app on a real loopback socket: uvicorn in a thread of the test process."""

from __future__ import annotations

import threading
from collections.abc import Callable

import uvicorn
from toolview_servers import free_port, wait_for_port

from toolview.server.app import create_app
from toolview.wire.log import ObservationLog


class ThreadedServer:
    """uvicorn serving the app on a real loopback socket, in a thread of this process."""

    def __init__(self, open_log: Callable[[], ObservationLog], **options: object) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(open_log, **options)  # type: ignore[arg-type]
        self.app = app
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadedServer:
        self.thread.start()
        wait_for_port(self.port)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
