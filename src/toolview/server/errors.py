"""Errors as short JSON answers: a log that is down is a 503, anything else a bare 500.

Why: a producer must be able to tell "try again" (the log's backend — Redis
restarting, SQLite locked — is unavailable, nothing was stored) from "you sent
something wrong" (4xx), and no error may carry a stack trace or an exception's
text to a client. The details go to the server's own log.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Final

from redis.exceptions import RedisError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["LOG_UNAVAILABLE", "internal_error", "log_unavailable"]

LOG_UNAVAILABLE: Final = (RedisError, sqlite3.OperationalError)
RETRY_AFTER: Final = "1"

logger = logging.getLogger("toolview.server")


async def log_unavailable(request: Request, exc: Exception) -> Response:
    """``503`` with ``Retry-After``: the log's backend failed; nothing of the request was stored."""
    logger.warning("observation log unavailable on %s %s: %r", request.method, request.url, exc)
    message = f"the observation log is unavailable ({type(exc).__name__}); retry shortly"
    return JSONResponse({"error": message}, 503, headers={"retry-after": RETRY_AFTER})


def internal_error() -> Response:
    """The one body an unexpected failure gets: no trace, no exception text."""
    return JSONResponse({"error": "internal server error"}, 500)
