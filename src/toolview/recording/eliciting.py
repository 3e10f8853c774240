"""An MCP server's ``elicitation/create``, answered by a person on the page or at the terminal.

``elicit(rec, …)`` is what ``rec.mcp(session)`` calls when the server asks.
Each ask is its own call in the thread (tool ``elicitation``, its message as
the argument), so a tool that asks twice shows two rows, each with its own
receipt. A schema the spec does not allow is refused before anyone sees it
(``contract.elicitation``) and the server reads a decline. Otherwise the call
waits (``tool-waiting`` with the schema) for an ``answer`` — from the server's
decision endpoint (``POST …/decision`` with ``"decision": "answer"``) or a
prompt per field — which is checked against the schema again before the
server gets it. Why a missing answer is ``cancel``: the person never answered;
``deny`` is the person's ``decline``; an answer that does not fit declines.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal, TextIO

from toolview.contract.elicitation import answer_problem, schema_problem
from toolview.recording.asking import keep_receipt, page_receipt, who

if TYPE_CHECKING:
    from toolview.recording.publishing import Publishing
    from toolview.recording.recorder import Recorder

__all__ = ["TOOL", "Action", "elicit"]

TOOL: Final = "elicitation"
Action = Literal["accept", "decline", "cancel"]
_LINE: Final = 4096


def elicit(
    rec: Recorder,
    call_id: str,
    message: str,
    schema: object,
    *,
    timeout: float = 600.0,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> tuple[Action, dict[str, object] | None]:
    """The person's answer to the server's form: the action and, on ``accept``, the content."""
    rec.call(call_id, TOOL, {"message": message})
    problem = schema_problem(schema)
    if problem is not None:
        rec.refused(call_id, f"{problem}; declined")
        return "decline", None
    assert isinstance(schema, Mapping)
    rec.waiting(call_id, question=message, schema=schema)
    publishing: Publishing | None = getattr(rec, "publishing", None)
    if publishing is not None:
        outcome = _on_page(rec, publishing, call_id, schema, time.monotonic() + timeout, stderr)
    else:
        outcome = _at_terminal(rec, call_id, schema, stdin or sys.stdin, stderr or sys.stderr)
    rec.result(call_id, {"action": outcome[0]}, is_error=outcome[0] != "accept")
    return outcome


def _on_page(
    rec: Recorder,
    publishing: Publishing,
    call_id: str,
    schema: Mapping[str, object],
    deadline: float,
    out: TextIO | None,
) -> tuple[Action, dict[str, object] | None]:
    receipt = page_receipt(rec, publishing, call_id, deadline, out or sys.stderr)
    if receipt is None:
        rec.decided(call_id, "deny", message="no answer in time: cancelled", by="toolview")
        return "cancel", None
    answer = receipt.raw.get("answer", {}) if receipt.decision != "deny" else None
    keep_receipt(rec, publishing, call_id, receipt, answer if isinstance(answer, dict) else None)
    return _checked(schema, answer)


def _at_terminal(
    rec: Recorder, call_id: str, schema: Mapping[str, object], stdin: TextIO, out: TextIO
) -> tuple[Action, dict[str, object] | None]:
    """One prompt per field (a JSON value, or the text itself); an empty line declines."""
    print(f"toolview: an MCP server asks (call {json.dumps(call_id)}):", file=out)
    fields = schema.get("properties")
    assert isinstance(fields, Mapping)
    answer: dict[str, object] = {}
    for name, field in fields.items():
        kind = field.get("type") if isinstance(field, Mapping) else None
        print(f"toolview: {json.dumps(name)} ({kind}): ", end="", file=out, flush=True)
        line = stdin.readline(_LINE).strip()
        if not line:
            rec.decided(call_id, "deny", by=who())
            return "decline", None
        answer[name] = _typed(line, kind)
    rec.decided(call_id, "answer", answer=answer, by=who())
    return _checked(schema, answer)


def _typed(line: str, kind: object) -> object:
    """A line as the field's type: JSON for numbers and booleans, the text for a string."""
    if kind == "string":
        return line
    try:
        value: object = json.loads(line)
    except ValueError:
        return line
    return value


def _checked(
    schema: Mapping[str, object], answer: object
) -> tuple[Action, dict[str, object] | None]:
    """``accept`` with an answer that fits the form; anything else (or a deny) declines."""
    if not isinstance(answer, dict) or answer_problem(schema, answer) is not None:
        return "decline", None
    return "accept", answer
