"""What the routes share: the log, the sent tail, the redactor, the limits, the projections."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final, cast

from starlette.requests import Request

from toolview.safety import redact, redact_json
from toolview.server.projection import PROJECTION_LIMIT, Projections
from toolview.server.stats import SentTail
from toolview.wire.follow import Redactor
from toolview.wire.log import ObservationLog

__all__ = ["BODY_LIMIT", "FOLLOW_LIMIT", "REDACTOR", "ServerState", "server_state"]

BODY_LIMIT: Final = 16 * 1024 * 1024
FOLLOW_LIMIT: Final = 512  # concurrent follow streams per client address
REDACTOR: Final = Redactor(text=redact, json=redact_json)


@dataclass
class ServerState:
    """One per app: set up at start-up, read by every route."""

    log: ObservationLog
    body_limit: int = BODY_LIMIT
    keepalive: float = 15.0
    send_timeout: float = 30.0
    sent: SentTail = field(default_factory=SentTail)
    redactor: Redactor = REDACTOR
    follow_limit: int = FOLLOW_LIMIT
    follows: Counter[str] = field(default_factory=Counter)
    projection_limit: int = PROJECTION_LIMIT
    projections: Projections = field(init=False)

    def __post_init__(self) -> None:
        """The page's thread projections read this state's log."""
        self.projections = Projections(self.log, self.projection_limit)


def server_state(request: Request) -> ServerState:
    """The app's state, from a request."""
    return cast(ServerState, request.app.state.toolview)
