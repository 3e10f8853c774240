"""A tool's span as its ``tool-call`` (at the start) and final ``tool-result`` (at the end).

Two conventions name the parts differently: the GenAI semantic conventions
(``gen_ai.tool.*``) and OpenInference (``tool.name``, ``input.value``,
``output.value``), which Arize's instrumentations of LangChain, the OpenAI
Agents SDK and others emit. A ``ToolDialect`` says where each part is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from toolview.contract import Observation, ToolCall, ToolResult
from toolview.hosts.otel.spans import TelemetrySpan, Unmappable, span_at
from toolview.hosts.otel.values import error_text, json_args, result_text

__all__ = ["GENAI_TOOL", "OPENINFERENCE_TOOL", "ToolDialect", "tool_call"]

_TOOL_PREFIX: Final = "execute_tool "


@dataclass(frozen=True)
class ToolDialect:
    """The attributes a convention keeps a tool call's name, id, arguments and result in."""

    name: str
    call_id: str
    arguments: str
    result: str


GENAI_TOOL: Final = ToolDialect(
    name="gen_ai.tool.name",
    call_id="gen_ai.tool.call.id",
    arguments="gen_ai.tool.call.arguments",
    result="gen_ai.tool.call.result",
)
OPENINFERENCE_TOOL: Final = ToolDialect("tool.name", "tool_call.id", "input.value", "output.value")


def tool_call(span: TelemetrySpan, dialect: ToolDialect = GENAI_TOOL) -> tuple[Observation, ...]:
    """The call and its result (an error with the failure's message if the span failed).

    The name falls back to the span's (after ``execute_tool``), the call id to
    the span id; a span that names no tool at all is ``Unmappable``.
    """
    name = span.text(dialect.name) or span.name.removeprefix(_TOOL_PREFIX).strip()
    if not name or name == "execute_tool":
        raise Unmappable(f"tool span {span.span_id} names no tool ({dialect.name})")
    call_id = span.text(dialect.call_id) or span.span_id
    if call_id in (".", ".."):
        raise Unmappable(f"a tool call id may not be {call_id!r}")
    failure = error_text(span)
    text = failure if failure is not None else result_text(span.attributes.get(dialect.result))
    args = json_args(span.attributes.get(dialect.arguments))
    call = ToolCall(tool_call_id=call_id, tool_name=name, args=args, at=span_at(span.start_ns))
    result = ToolResult(
        tool_call_id=call_id,
        tool_name=name,
        text=text,
        complete=True,
        is_error=failure is not None,
        at=span_at(span.end_ns),
    )
    return call, result
