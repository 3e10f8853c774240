"""One finished call → its ``tool-result``: the tool's mapper, else its text.

The table names Claude Code's built-in tools; an MCP tool (``mcp__server__
tool``) goes through the MCP host's own mapping; a tool nobody mapped keeps its
text (a lone image it returned is drawn as an image). An error is given a kind
only by a tool whose failure still has that kind's body (``_FAILED``: a command
that exited non-zero has its command, output and exit code); any other error's
clean text is what every surface shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, ImageProps, MarkdownProps, ToolResult
from toolview.hosts.claude_code.files import edit, notebook_edit, read, write
from toolview.hosts.claude_code.finished import Finished, Mapped, get_str
from toolview.hosts.claude_code.search import glob, grep, ls, web_fetch, web_search
from toolview.hosts.claude_code.shell import bash, bash_output
from toolview.hosts.claude_code.tasks import TASK_TOOLS, TaskBoard, todo_write
from toolview.hosts.mcp import map_result

__all__ = ["AGENT_TOOLS", "agent_answer", "result_observation"]

AGENT_TOOLS: Final = frozenset({"Task", "Agent"})
_AGENT_TRAILER: Final = "agentId: "


def agent_answer(done: Finished) -> Mapped | None:
    """The sub-agent's final answer (its calls come from its own file, marked)."""
    content = done.details.get("content")
    texts = [
        block["text"]
        for block in (content if isinstance(content, list) else [])
        if isinstance(block, Mapping) and isinstance(block.get("text"), str)
    ]
    answer = "\n".join(texts) if texts else _without_trailer(done.text)
    if not answer.strip():
        return None
    return Descriptor(kind="markdown", props=MarkdownProps(markdown=answer)), answer


def _without_trailer(text: str) -> str:
    """The answer without the ``agentId: … <usage>…</usage>`` lines the model was also sent."""
    at = text.rfind("\n" + _AGENT_TRAILER)
    return text[:at] if at >= 0 else text


def _plan(done: Finished) -> Mapped | None:
    plan = get_str(done.details, "plan") or get_str(done.args, "plan")
    if not plan:
        return None
    return Descriptor(kind="markdown", props=MarkdownProps(markdown=plan)), done.text


_MAPPERS: Final[Mapping[str, Callable[[Finished], Mapped | None]]] = {
    "Bash": bash,
    "BashOutput": bash_output,
    "Read": read,
    "Edit": edit,
    "MultiEdit": edit,
    "Write": write,
    "NotebookEdit": notebook_edit,
    "Glob": glob,
    "Grep": grep,
    "LS": ls,
    "WebFetch": web_fetch,
    "WebSearch": web_search,
    "TodoWrite": todo_write,
    "ExitPlanMode": _plan,
    "Task": agent_answer,
    "Agent": agent_answer,
}


_FAILED: Final = frozenset({"Bash"})
"""Tools whose mapper reads a failed result too (it returns ``None`` when it has no body)."""


def _lone_image(done: Finished) -> Mapped | None:
    if len(done.images) != 1 or done.text.strip() != f"[image: {done.images[0].mime_type}]":
        return None
    image = done.images[0]
    return Descriptor(kind="image", props=ImageProps(mime_type=image.mime_type, data=image.data)), (
        done.text
    )


def _mcp(call_id: str, done: Finished, content: object) -> ToolResult:
    blocks = content if isinstance(content, list) else [{"type": "text", "text": done.text}]
    raw = {"content": [_mcp_block(block) for block in blocks], "isError": done.is_error}
    return map_result(raw, tool_call_id=call_id, tool_name=done.name)


def _mcp_block(block: object) -> object:
    """An Anthropic ``image`` block (``source.data``) as MCP's (``data``, ``mimeType``)."""
    if isinstance(block, Mapping) and block.get("type") == "image":
        source = block.get("source")
        if isinstance(source, Mapping):
            return {
                "type": "image",
                "data": source.get("data"),
                "mimeType": source.get("media_type"),
            }
    return block


def result_observation(
    call_id: str, done: Finished, content: object, tasks: TaskBoard
) -> ToolResult:
    """The final ``tool-result`` of one call (unstamped: the mapper adds ``at`` and marks)."""
    if done.name.startswith("mcp__"):
        return _mcp(call_id, done, content)
    mapped: Mapped | None = None
    if not done.is_error or done.name in _FAILED:
        if done.name in TASK_TOOLS:
            mapped = tasks.apply(done)
        else:
            mapper = _MAPPERS.get(done.name)
            mapped = (mapper(done) if mapper else None) or _lone_image(done)
    descriptor, text = mapped if mapped is not None else (msgspec.UNSET, done.text)
    return ToolResult(
        tool_call_id=call_id,
        tool_name=done.name,
        text=text,
        complete=True,
        is_error=done.is_error,
        descriptor=descriptor,
    )
