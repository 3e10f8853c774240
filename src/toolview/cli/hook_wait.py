"""What every permission hook does once it knows the call: publish it, wait, read the decision.

One home for the waiting rules the Claude Code and the Codex hooks share: the
``tool-waiting`` goes to the session's thread through the ``Publisher`` (the
same token rules as ``run --to``), the decision is long-polled in rounds up to
the deadline, and anything but a readable ``allow`` / ``deny`` receipt — no
server, a refusal, the viewer gone, an ``answer``, time out — is ``None``: the
hook then prints nothing and the agent's own prompt decides. The hook never
allows by itself.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Final, cast

if TYPE_CHECKING:
    import httpx

    from toolview.contract import ToolWaiting
    from toolview.contract.observations import Decision

__all__ = ["POLL", "say", "wait_for_decision"]

POLL: Final = 60  # seconds one long poll is held (the server allows 600)


def wait_for_decision(
    base: str, thread: str, waiting: ToolWaiting, deadline: float, agent: str
) -> tuple[Decision, str | None] | None:
    """``(allow|deny, message)`` once a person decided ``waiting``; ``None`` otherwise.

    ``agent`` names who asks when the viewer does not answer ("Claude Code asks").
    """
    import httpx

    from toolview.remote.client import Publisher, PublishError
    from toolview.remote.token import auth_headers

    call = waiting.tool_call_id
    try:
        with Publisher(f"{base}/threads/{thread}", timeout=10.0, notify=say) as publisher:
            publisher.publish([waiting])
            say(f"call {call} waits for a decision on {publisher.page_url}")
    except PublishError as exc:
        say(f"no decision from the viewer ({exc}); {agent} asks")
        return None
    path = f"{base}/api/threads/{thread}/calls/{call}/decision"
    headers = auth_headers(base, notify=lambda _: None)  # a withheld token was said above
    with httpx.Client(headers=headers) as client:
        while (left := deadline - time.monotonic()) > 0:
            wait = max(1, min(POLL, int(left)))
            try:
                answer = client.get(path, params={"timeout": wait}, timeout=wait + 10.0)
            except httpx.HTTPError as exc:
                say(f"the viewer went away ({exc}); {agent} asks")
                return None
            if answer.status_code == 200:
                return _answered(answer, agent)
            if answer.status_code != 204:
                say(f"no decision ({answer.status_code}); {agent} asks")
                return None
    say(f"no decision in time; {agent} asks")
    return None


def _answered(answer: httpx.Response, agent: str) -> tuple[Decision, str | None] | None:
    """The decision in the server's receipt; a receipt it cannot read decides nothing."""
    try:
        receipt = answer.json()["decision"]
        decision, message = receipt["decision"], receipt.get("message")
    except (ValueError, KeyError, TypeError):
        say(f"the viewer's answer is not a receipt; {agent} asks")
        return None
    if decision not in ("allow", "deny"):
        return None  # an answer, or a word this hook does not know: the prompt decides
    return cast("Decision", decision), message if isinstance(message, str) else None


def say(message: str) -> None:
    """A line on stderr (the agents show a hook's stderr in their transcript view)."""
    print(f"toolview hook: {message}", file=sys.stderr, flush=True)
