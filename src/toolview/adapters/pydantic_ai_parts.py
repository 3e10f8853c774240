"""What the pydantic-ai capability reads off pydantic-ai's values: answers, returns, failures.

Apart from the capability so each rule reads alone: which request parts
answer which calls, what a ``ToolReturn`` asks to be shown as, and what a
failure says — named as the tool raised it (``ModelRetry``, ``ToolFailed``),
not as pydantic-ai wraps it.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolview.adapters import require
from toolview.contract import METADATA_KEY, Descriptor, read_descriptor

require("pydantic_ai", "pydantic-ai")

from pydantic import ValidationError  # noqa: E402
from pydantic_ai import ToolReturn  # noqa: E402
from pydantic_ai.exceptions import ToolFailedError, ToolRetryError  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    ToolCallPart,
    ToolReturnPart,
)

__all__ = ["answered", "failure_text", "returned"]


def answered(messages: list[ModelMessage]) -> list[tuple[ToolCallPart, ToolReturnPart]]:
    """Each call of the last response with the part of a request after it that answers it.

    A run resumed with ``DeferredToolResults`` may add its answers in a
    request of its own, after the one the deferring run left.
    """
    backwards = range(len(messages) - 1, -1, -1)  # the newest first: a long run stays cheap
    last = next((n for n in backwards if isinstance(messages[n], ModelResponse)), -1)
    response = messages[last] if last >= 0 else None
    if not isinstance(response, ModelResponse):
        return []
    asked = {p.tool_call_id: p for p in response.parts if isinstance(p, ToolCallPart)}
    return [
        (asked[part.tool_call_id], part)
        for request in messages[last + 1 :]
        if isinstance(request, ModelRequest)
        for part in request.parts
        if isinstance(part, ToolReturnPart) and part.tool_call_id in asked
    ]


def returned(result: object) -> tuple[object, Descriptor | None]:
    """A tool's value and the descriptor it asked for.

    A ``ToolReturn`` is its ``return_value``; its ``metadata`` (never sent to
    the model) may carry a descriptor under ``toolview:result``, as a
    ``Descriptor`` or its JSON form.
    """
    if not isinstance(result, ToolReturn):
        return result, None
    metadata = result.metadata
    if not isinstance(metadata, Mapping):
        return result.return_value, None
    found = metadata.get(METADATA_KEY)
    if isinstance(found, Descriptor):
        return result.return_value, found
    return result.return_value, read_descriptor(metadata)


def failure_text(exc: Exception) -> str:
    """What a failed call shows: what the model is told, named as the tool raised it."""
    if isinstance(exc, ToolRetryError):
        return f"ModelRetry: {exc}"
    if isinstance(exc, ToolFailedError):
        return f"ToolFailed: {exc}"
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or 'arguments'}: {error['msg']}"
            for error in exc.errors(include_url=False)
        )
        return f"invalid arguments: {problems}"
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
