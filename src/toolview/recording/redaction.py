"""Every observation a recorder takes, redacted before anything keeps or sends it.

Why at the recorder: what a framework hands over (arguments, results, MCP
results mapped by the host, a user's own ``emit``) goes to a record file, a
server and reports; a secret must be gone before any of them sees it. Redacting
twice changes nothing (a redaction mark matches no pattern), so observations a
host already redacted (the command runner's) pass unchanged.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.safety import redact
from toolview.safety.structured import redact_json

__all__ = ["redact_observation"]


def _object(value: dict[str, Any]) -> dict[str, Any]:
    redacted = redact_json(value)
    return redacted if isinstance(redacted, dict) else {}


def _descriptor(descriptor: Descriptor) -> Descriptor:
    props = descriptor.props
    if descriptor.kind == "image" and isinstance(props.get("data"), str):
        # base64 is not text: a pattern matched inside it would only break the image
        kept = _object({key: value for key, value in props.items() if key != "data"})
        return msgspec.structs.replace(descriptor, props={**kept, "data": props["data"]})
    return msgspec.structs.replace(descriptor, props=_object(props))


def redact_observation(observation: Observation) -> Observation:
    """``observation`` with its texts, arguments and props redacted."""
    if isinstance(observation, ToolCall):
        return msgspec.structs.replace(observation, args=_object(observation.args))
    if isinstance(observation, ToolResult):
        descriptor = observation.descriptor
        if isinstance(descriptor, Descriptor):
            descriptor = _descriptor(descriptor)
        return msgspec.structs.replace(
            observation, text=redact(observation.text), descriptor=descriptor
        )
    if isinstance(observation, ToolRefused):
        return msgspec.structs.replace(observation, reason=redact(observation.reason))
    if isinstance(observation, Message):
        return msgspec.structs.replace(observation, text=redact(observation.text))
    if isinstance(observation, RunEnded) and isinstance(observation.reason, str):
        return msgspec.structs.replace(observation, reason=redact(observation.reason))
    return observation
