"""Errors as short JSON answers: a route raises ``ApiError``, a log that is down is a 503,
anything else a bare 500.

Why one home: every error takes one shape (``error``), whoever answers it. A
route never builds an error response itself: it raises ``ApiError`` and the
one handler (``api_error``, registered in ``server.app``) renders it, so a
helper returns its value or raises, never "a value or a response". The guards
in front of the routes (``server.guard.security.refusal``) sit outside Starlette's
exception handling and call ``error`` directly.

Why 503 apart: a producer must be able to tell "try again" (the log's backend — Redis
restarting, SQLite locked — is unavailable, nothing was stored) from "you sent
something wrong" (4xx), and no error may carry a stack trace or an exception's
text to a client. The details go to the server's own log.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from typing import Final

from redis.exceptions import RedisError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = [
    "LOG_UNAVAILABLE",
    "RETRY_AFTER",
    "ApiError",
    "api_error",
    "error",
    "internal_error",
    "log_unavailable",
]

LOG_UNAVAILABLE: Final = (RedisError, sqlite3.OperationalError)
RETRY_AFTER: Final = "1"

logger = logging.getLogger("toolview.server")


def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An error as JSON: ``{"error": message}`` — the one shape every error takes."""
    return JSONResponse({"error": message}, status, headers=headers)


class ApiError(HTTPException):
    """An error a route raises: ``status``, the ``message`` a client reads, extra ``headers``.

    Why a subclass of Starlette's ``HTTPException``: the handler is registered
    for this class alone, so Starlette's own answers (an unknown path's 404, a
    405 with ``Allow``) keep their plain-text form.
    """

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(status, message, headers)


async def api_error(request: Request, exc: Exception) -> Response:
    """The one handler for ``ApiError``: ``error()`` of its status, message and headers."""
    if not isinstance(exc, ApiError):  # registered for ApiError only: never reached
        raise exc
    return error(exc.status_code, exc.detail, exc.headers)


async def log_unavailable(request: Request, exc: Exception) -> Response:
    """``503`` with ``Retry-After``: the log's backend failed; nothing of the request was stored."""
    logger.warning("observation log unavailable on %s %s: %r", request.method, request.url, exc)
    message = f"the observation log is unavailable ({type(exc).__name__}); retry shortly"
    return error(503, message, {"retry-after": RETRY_AFTER})


def internal_error() -> Response:
    """The one body an unexpected failure gets: no trace, no exception text."""
    return error(500, "internal server error")
