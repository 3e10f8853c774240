"""Asking the person about a waiting call: on the toolview page, or at the terminal.

``ask(rec, call_id)`` is what every framework's approval helper calls
(``adapters.pydantic_ai.approve`` …): the call must already be recorded as
waiting (``rec.waiting``). With ``capture(to=…)`` the waiting call is on the
live page; ``ask`` waits until the server holds it, then long-polls its
decision (``remote.decision_wait``, the same poll as ``toolview hook``).
Without a server it asks at the terminal. Either way it records the decision
as a receipt and returns it. Why a missing answer is a denial: no server, an
error, or the time running out never lets a call run by itself.
"""

from __future__ import annotations

import getpass
import json
import socket
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TextIO

from toolview.recording.redaction import REDACTOR
from toolview.recording.values import clean_id

if TYPE_CHECKING:
    from collections.abc import Mapping

    from toolview.recording.publishing import Publishing
    from toolview.recording.recorder import Recorder
    from toolview.remote.decision_wait import Receipt

__all__ = ["DENIED", "NO_ANSWER", "Answer", "ask", "keep_receipt", "page_receipt", "who"]

DENIED: Final = "The person denied the call."
"""What the model reads for a denial that came without a message."""
NO_ANSWER: Final = "no decision from the person in time; denied by toolview"
_SEND_TIMEOUT: Final = 10.0
_LINE: Final = 4096  # characters of an answer read at the terminal


@dataclass(frozen=True)
class Answer:
    """The person's decision: ``allow`` or not, and the message for the model."""

    allow: bool
    message: str | None = None

    @property
    def told(self) -> str:
        """What the model reads for a denial: the person's message, else ``DENIED``."""
        return self.message or DENIED


def ask(
    rec: Recorder,
    call_id: str,
    *,
    timeout: float = 600.0,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> Answer:
    """The person's answer on ``call_id`` (recorded as its ``tool-decision``)."""
    publishing: Publishing | None = getattr(rec, "publishing", None)
    if publishing is not None:
        return _on_page(rec, publishing, call_id, time.monotonic() + timeout, stderr or sys.stderr)
    return _at_terminal(rec, call_id, stdin or sys.stdin, stderr or sys.stderr)


def _on_page(
    rec: Recorder, publishing: Publishing, call_id: str, deadline: float, out: TextIO
) -> Answer:
    """Wait until the server holds the waiting call, then for its decision there."""
    receipt = page_receipt(rec, publishing, call_id, deadline, out)
    if receipt is None or receipt.decision not in ("allow", "deny"):
        rec.decided(call_id, "deny", message=NO_ANSWER, by="toolview (no decision)")
        return Answer(False, NO_ANSWER)
    keep_receipt(rec, publishing, call_id, receipt)
    return Answer(receipt.decision == "allow", receipt.message)


def page_receipt(
    rec: Recorder, publishing: Publishing, call_id: str, deadline: float, out: TextIO
) -> Receipt | None:
    """The server's receipt on the waiting ``call_id`` (``None``: none came, or no server)."""
    from toolview.remote.decision_wait import wait_for_decision

    def say(message: str) -> None:
        print(f"toolview: {message}", file=out, flush=True)

    rec.thread  # noqa: B018 — everything recorded so far is handed to the publisher
    shown = REDACTOR.id(clean_id(call_id, "call"))  # the id the server knows the call by
    if not publishing.sent(max(0.0, min(_SEND_TIMEOUT, deadline - time.monotonic()))):
        say(f"call {shown} could not be shown on {publishing.page_url}")
        return None
    say(f"call {shown} waits for a decision on {publishing.page_url}")
    return wait_for_decision(
        publishing.base, publishing.thread, shown, deadline, say, publishing.token
    )


def keep_receipt(
    rec: Recorder,
    publishing: Publishing,
    call_id: str,
    receipt: Receipt,
    answer: Mapping[str, object] | None = None,
) -> None:
    """Record the server's receipt here too (the server holds it: not published again)."""
    publishing.receipts.add(REDACTOR.id(clean_id(call_id, "call")))
    via, at = receipt.raw.get("via"), receipt.raw.get("at")
    rec.decided(
        call_id,
        receipt.decision,
        message=receipt.message,
        answer=answer,
        by=receipt.by,
        via=via if isinstance(via, str) else None,
        at=at if isinstance(at, str) else None,
    )


def _at_terminal(rec: Recorder, call_id: str, stdin: TextIO, out: TextIO) -> Answer:
    """A prompt: ``y`` allows, anything else denies (then a message for the model, optional)."""
    entry = rec.call_entry(call_id)
    call = entry.call if entry is not None else None  # redacted, as every surface shows it
    what = json.dumps([call.tool_name, call.args] if call is not None else [], ensure_ascii=True)
    shown = json.dumps(call_id, ensure_ascii=True)  # no escape sequence reaches the terminal
    print(f"toolview: call {shown} waits for you: {what[:2000]}", file=out)
    print("toolview: allow it? [y/N] ", end="", file=out, flush=True)
    allow = stdin.readline(_LINE).strip().lower() in ("y", "yes")
    message = None
    if not allow:
        print("toolview: a message for the model (optional): ", end="", file=out, flush=True)
        message = stdin.readline(_LINE).strip() or None
    rec.decided(call_id, "allow" if allow else "deny", message=message, by=who())
    return Answer(allow, message)


def who() -> str:
    """``by`` for a terminal's decision: the user on this machine."""
    try:
        return f"{getpass.getuser()}@{socket.gethostname()} (terminal)"
    except (OSError, KeyError):
        return "the terminal"
