"""Waiting for a person's decision on a server: the long poll every waiting process holds.

One home for it: ``toolview hook claude-code`` (a coding agent's permission
hook) and ``capture()``'s approvals (a Python framework's waiting call) both
publish a ``tool-waiting`` and then hold ``GET …/calls/{call}/decision`` in
rounds until a receipt comes or their time runs out. Why it never decides by
itself: no server, an error, an unreadable receipt or the deadline give
``None``, and the caller falls back to its own prompt (or a denial) — a broken
viewer never lets a call run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast
from urllib.parse import quote

import httpx

from toolview.contract.observations import DECISIONS, Decision
from toolview.remote.token import auth_headers

__all__ = ["POLL_SECONDS", "Receipt", "wait_for_decision"]

POLL_SECONDS: Final = 60  # seconds one long poll is held (the server allows 600)


@dataclass(frozen=True)
class Receipt:
    """What the server kept: ``allow`` / ``deny`` / ``answer``, the message, who decided."""

    decision: Decision
    message: str | None
    by: str
    raw: dict[str, object]


def wait_for_decision(
    base: str,
    thread: str,
    call: str,
    deadline: float,
    say: Callable[[str], None],
    token: str | None = None,
) -> Receipt | None:
    """The receipt for ``call`` once decided; ``None`` when the server fails or time runs out."""
    where = f"{quote(thread, safe='')}/calls/{quote(call, safe='')}"  # an id is never a path
    path = f"{base.rstrip('/')}/api/threads/{where}/decision"
    headers = auth_headers(base, token, notify=lambda _: None)  # a withheld one was said
    with httpx.Client(headers=headers) as client:
        while (left := deadline - time.monotonic()) > 0:
            wait = max(1, min(POLL_SECONDS, int(left)))
            try:
                answer = client.get(path, params={"timeout": wait}, timeout=wait + 10.0)
            except httpx.HTTPError as exc:
                say(f"the viewer went away ({exc})")
                return None
            if answer.status_code == 200:
                return _receipt(answer, say)
            if answer.status_code != 204:
                say(f"no decision ({answer.status_code})")
                return None
    say("no decision in time")
    return None


def _receipt(answer: httpx.Response, say: Callable[[str], None]) -> Receipt | None:
    """The server's receipt; one that cannot be read decides nothing."""
    try:
        raw = answer.json()["decision"]
        decision, message, by = raw["decision"], raw.get("message"), raw.get("by")
    except (ValueError, KeyError, TypeError):
        say("the viewer's answer is not a receipt")
        return None
    if decision not in DECISIONS or not isinstance(raw, dict):
        say("the viewer's answer is not a receipt")
        return None
    return Receipt(
        decision=cast("Decision", decision),
        message=message if isinstance(message, str) else None,
        by=by if isinstance(by, str) and by else "the viewer",
        raw=raw,
    )
