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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolview.contract import ToolWaiting
    from toolview.contract.observations import Decision

__all__ = ["say", "wait_for_decision"]


def wait_for_decision(
    base: str, thread: str, waiting: ToolWaiting, deadline: float, agent: str
) -> tuple[Decision, str | None] | None:
    """``(allow|deny, message)`` once a person decided ``waiting``; ``None`` otherwise.

    ``agent`` names who asks when the viewer does not answer ("Claude Code asks").
    The long poll is ``remote.decision_wait``'s, the one every waiting process holds.
    """
    from toolview.remote import decision_wait
    from toolview.remote.client import Publisher, PublishError

    call = waiting.tool_call_id
    try:
        with Publisher(f"{base}/threads/{thread}", timeout=10.0, notify=say) as publisher:
            publisher.publish([waiting])
            say(f"call {call} waits for a decision on {publisher.page_url}")
    except PublishError as exc:
        say(f"no decision from the viewer ({exc}); {agent} asks")
        return None
    receipt = decision_wait.wait_for_decision(
        base, thread, call, deadline, lambda why: say(f"{why}; {agent} asks")
    )
    if receipt is None or receipt.decision not in ("allow", "deny"):
        return None  # an answer, or a word this hook does not know: the prompt decides
    return receipt.decision, receipt.message


def say(message: str) -> None:
    """A line on stderr (the agents show a hook's stderr in their transcript view)."""
    print(f"toolview hook: {message}", file=sys.stderr, flush=True)
