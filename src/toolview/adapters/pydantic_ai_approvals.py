"""pydantic-ai approvals: ask the person about ``DeferredToolRequests``, resume with the answers.

```python
with toolview.capture(to="http://127.0.0.1:8000") as rec:
    result = agent.run_sync(prompt, capabilities=[rec.pydantic_ai()])
    while isinstance(result.output, DeferredToolRequests):
        result = agent.run_sync(
            message_history=result.all_messages(),
            deferred_tool_results=approve(rec, result.output),
            capabilities=[rec.pydantic_ai()],
        )
```

Why a helper beside the capability: the capability only records (a run that
stops for approvals shows its calls waiting); who answers — the page's
Allow/Deny or the terminal's prompt — is ``recording.asking``'s, the same for
every framework. This builds pydantic-ai's own resume object from the answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from toolview.adapters import require

if TYPE_CHECKING:
    from toolview.recording import Recorder

require("pydantic_ai", "pydantic-ai")

from pydantic_ai import DeferredToolRequests, DeferredToolResults, ToolDenied  # noqa: E402

__all__ = ["approve"]


def approve(
    recorder: Recorder,
    requests: DeferredToolRequests,
    *,
    timeout: float = 600.0,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> DeferredToolResults:
    """Ask the person about each approval ``requests`` holds; the results to resume the run with.

    On the page with ``capture(to=…)``, else at the terminal (``recording.asking``);
    a denial's message is what the model reads.
    """
    from toolview.recording.asking import ask

    approvals: dict[str, bool | ToolDenied] = {}
    for call in requests.approvals:
        answer = ask(recorder, call.tool_call_id, timeout=timeout, stdin=stdin, stderr=stderr)
        approvals[call.tool_call_id] = True if answer.allow else ToolDenied(answer.told)
    return DeferredToolResults(approvals=dict(approvals))
