"""``rec.mcp(session)`` answers the server's ``elicitation/create`` (``recording.eliciting``).

Why it replaces only the SDK's default callback: a program that answers
elicitations itself keeps doing so. The client announces the capability at
``initialize()``, so ``rec.mcp(session)`` must come before it for a server to
ask. A URL-mode elicitation (open this address) is declined and noted: toolview
never sends a person to an address a server chose.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

import anyio.to_thread
from mcp import types
from mcp.client import session as client_session

from toolview.recording.eliciting import elicit
from toolview.recording.recorder import Recorder

__all__ = ["answer_elicitations"]


def answer_elicitations(recorder: Recorder, session: Any) -> None:
    """Install the person's answer as the session's elicitation callback (if it has none)."""
    default = getattr(client_session, "_default_elicitation_callback", None)
    if getattr(session, "_elicitation_callback", None) is not default:
        return  # the program's own callback answers

    async def on_elicit(context: Any, params: Any) -> types.ElicitResult:
        call_id = f"mcp-elicit-{uuid.uuid4().hex[:12]}"
        if not isinstance(params, types.ElicitRequestFormParams):
            recorder.call(call_id, "elicitation", {"message": str(params.message)})
            recorder.refused(call_id, "a URL elicitation; declined (toolview opens no address)")
            return types.ElicitResult(action="decline")
        ask = functools.partial(elicit, recorder, call_id, params.message, params.requested_schema)
        action, content = await anyio.to_thread.run_sync(ask, abandon_on_cancel=True)
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]

    session._elicitation_callback = on_elicit
