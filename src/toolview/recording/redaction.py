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

(An image's base64 ``data`` is not text: that function keeps it as it is.)
"""

from __future__ import annotations

from typing import Final

from toolview.contract import Observation
from toolview.safety import redact
from toolview.safety.structured import redact_json
from toolview.wire import memo

__all__ = ["REDACTOR", "redact_observation"]

REDACTOR: Final = memo.Redactor(text=redact, json=redact_json, budget=1024 * 1024)
"""The recorder's redactor: the server's rules; its memo keeps names and ids (1 MiB)."""


def redact_observation(observation: Observation) -> Observation:
    """``observation`` with every string field redacted as the server redacts it."""
    return memo.redact_observation(observation, REDACTOR)
