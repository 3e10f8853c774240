"""The app on a real loopback socket: uvicorn in a thread of the test process."""

from __future__ import annotations

from collections.abc import Callable

from toolview_servers import ServedApp

from toolview.server.app import create_app
from toolview.wire.log import ObservationLog


class ThreadedServer(ServedApp):
    """uvicorn serving the app on a real loopback socket, in a thread of this process."""

    def __init__(self, open_log: Callable[[], ObservationLog], **options: object) -> None:
        super().__init__(create_app(open_log, **options))  # type: ignore[arg-type]
