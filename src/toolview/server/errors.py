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

__all__ = ["LOG_UNAVAILABLE", "RETRY_AFTER", "error", "internal_error", "log_unavailable"]

LOG_UNAVAILABLE: Final = (RedisError, sqlite3.OperationalError)
RETRY_AFTER: Final = "1"

logger = logging.getLogger("toolview.server")


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An error as JSON: ``{"error": message}`` — the one shape every error takes."""
    return JSONResponse({"error": message}, status, headers=headers)


async def log_unavailable(request: Request, exc: Exception) -> Response:
    """``503`` with ``Retry-After``: the log's backend failed; nothing of the request was stored."""
    logger.warning("observation log unavailable on %s %s: %r", request.method, request.url, exc)
    message = f"the observation log is unavailable ({type(exc).__name__}); retry shortly"
    return error(503, message, {"retry-after": RETRY_AFTER})


def internal_error() -> Response:
    """The one body an unexpected failure gets: no trace, no exception text."""
    return error(500, "internal server error")
