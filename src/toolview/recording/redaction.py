"""Every observation a recorder takes, redacted before anything keeps or sends it.

Why at the recorder: what a framework hands over (arguments, results, MCP
results mapped by the host, a user's own ``emit``) goes to a record file, a
server and reports; a secret must be gone before any of them sees it.

Why the server's function (``wire.memo.redact_observation``): one home for
what "redacted" means. Every string field of every observation is redacted
(call ids, tool names, kinds and models too, not only texts and arguments),
an id that redaction would change becomes the same ``redacted-``+HMAC id the
server gives it (``safety.opaque``), so a call and its result still pair, and
a running call's partial output holds back its unterminated last token.
Redacting twice changes nothing (a redaction mark and an opaque id match no
pattern), so observations a host already redacted pass unchanged.

One exception, kept from before: an image's base64 ``data`` is not text — a
pattern matched inside it would only break the image — so it is set aside
while the rest is redacted and put back after.
"""

from __future__ import annotations

from typing import Final

import msgspec

from toolview.contract import Descriptor, Observation, ToolResult
from toolview.safety import redact
from toolview.safety.structured import redact_json
from toolview.wire import memo

__all__ = ["REDACTOR", "redact_observation"]

REDACTOR: Final = memo.Redactor(text=redact, json=redact_json, budget=1024 * 1024)
"""The recorder's redactor: the server's rules; its memo keeps names and ids (1 MiB)."""


def redact_observation(observation: Observation) -> Observation:
    """``observation`` with every string field redacted as the server redacts it."""
    if isinstance(observation, ToolResult) and isinstance(observation.descriptor, Descriptor):
        data = observation.descriptor.props.get("data")
        if observation.descriptor.kind == "image" and isinstance(data, str):
            return _image_result(observation, observation.descriptor, data)
    return memo.redact_observation(observation, REDACTOR)


def _image_result(result: ToolResult, descriptor: Descriptor, data: str) -> Observation:
    """An image result redacted with its base64 ``data`` set aside, then put back."""
    props = {key: value for key, value in descriptor.props.items() if key != "data"}
    bare = msgspec.structs.replace(descriptor, props=props)
    safe = memo.redact_observation(msgspec.structs.replace(result, descriptor=bare), REDACTOR)
    if not isinstance(safe, ToolResult) or not isinstance(safe.descriptor, Descriptor):
        return safe  # never: redaction keeps an observation's type and its descriptor
    kept = msgspec.structs.replace(safe.descriptor, props={**safe.descriptor.props, "data": data})
    return msgspec.structs.replace(safe, descriptor=kept)
