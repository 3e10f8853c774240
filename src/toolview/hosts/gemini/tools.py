"""One of a ``gemini`` message's ``toolCalls[]`` → its call and its final result.

Gemini CLI records a call only once it has finished (``status`` ``success``,
``error`` or ``cancelled``), with ``result`` as the ``functionResponse``
parts it sent the model and ``resultDisplay`` as what its own screen showed
(a ``fileDiff`` for a written file, the list for ``write_todos``). The kind
comes from the tool: ``run_shell_command`` → ``shell`` (the exit code read
from the text: a failed command is a "success" there), ``read_file`` →
``file``, ``write_file``/``replace`` → ``diff``, ``write_todos`` → ``todo``,
``glob`` → a ``table`` of the paths it found;
any other keeps its text. A status other than ``success`` is an error, and
so is an ``invoke_agent`` whose sub-agent ended for another reason than
reaching its goal (``Termination Reason: GOAL``): the CLI says "success".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import (
    Descriptor,
    DiffProps,
    FileProps,
    TableProps,
    TodoItem,
    TodoProps,
    ToolCall,
    ToolResult,
)
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.gemini.shell import shell_answer, shell_descriptor, unwrap
from toolview.hosts.sessions import final_result

__all__ = ["FINAL_STATUSES", "call_of", "result_of", "result_text"]

FINAL_STATUSES: Final = frozenset({"success", "error", "cancelled"})
_TODO: Final = frozenset({"pending", "in_progress", "completed", "cancelled"})
_TRUNCATED_READ: Final = "IMPORTANT: The file content has been truncated"
_GLOB_HEAD: Final = re.compile(
    r"\AFound (\d{1,9}) file\(s\) matching .{0,4000}sorted by modification time \(newest first\):\Z"
)
_AGENT_ENDED: Final = re.compile(
    r"\ASubagent '[^'\n]{1,80}' finished\.\nTermination Reason: (\w{1,60})"
)


def call_of(record: Mapping[str, object]) -> ToolCall | None:
    """The call a tool-call record makes; None without an id and a name."""
    call_id, name = as_str(record.get("id")), as_str(record.get("name"))
    if call_id is None or name is None:
        return None
    return ToolCall(tool_call_id=call_id, tool_name=name, args=dict(as_map(record.get("args"))))


def result_text(result: object) -> str:
    """The text of a call's ``functionResponse`` parts (``output``, else ``error``),
    unwrapped from ``<untrusted_context>``; a part of another shape is named."""
    texts: list[str] = []
    for part in result if isinstance(result, list) else [result]:
        part = as_map(part)
        response = as_map(as_map(part.get("functionResponse")).get("response"))
        said = as_str(response.get("output")) or as_str(response.get("error"))
        if said is not None:
            texts.append(unwrap(said))
        elif isinstance(part.get("text"), str):
            texts.append(str(part["text"]))
        elif "inlineData" in part:
            texts.append("[inline data]")
    return "\n".join(texts)


def result_of(call: ToolCall, record: Mapping[str, object], at: str | None) -> ToolResult:
    """The final result of a finished call record."""
    status = as_str(record.get("status"))
    text = result_text(record.get("result"))
    failed = status != "success"
    descriptor: Descriptor | None = None
    if call.tool_name == "run_shell_command" and status != "error":
        answer = shell_answer(text)
        command = as_str(call.args.get("command")) or ""
        descriptor = shell_descriptor(command, answer)
        failed, text = failed or answer.failed, answer.output
    elif not failed:
        descriptor = _kind(call, as_map(record.get("resultDisplay")), text)
        ended = _AGENT_ENDED.match(text) if call.tool_name == "invoke_agent" else None
        failed = ended is not None and ended.group(1) != "GOAL"  # a sub-agent that gave up
    return final_result(call, text, failed=failed, descriptor=descriptor, at=at)


def _kind(call: ToolCall, display: Mapping[str, object], text: str) -> Descriptor | None:
    name, args = call.tool_name, call.args
    if name == "read_file":
        path = as_str(args.get("file_path"))
        if path is None or text.startswith(_TRUNCATED_READ):
            return None
        start = args.get("start_line")
        first = start if isinstance(start, int) and start > 0 else msgspec.UNSET
        return Descriptor("file", FileProps(path=path, content=text, start_line=first))
    if name in ("write_file", "replace"):
        diff = as_str(display.get("fileDiff"))
        path = as_str(display.get("filePath")) or as_str(args.get("file_path"))
        if diff is None:
            return None
        return Descriptor("diff", DiffProps(diff=diff, path=path or msgspec.UNSET))
    if name == "write_todos":
        return _todos(args.get("todos"))
    if name == "glob":
        return _glob(text)
    return None


def _glob(text: str) -> Descriptor | None:
    """``glob``'s listing as a table of paths, when it is whole (as many paths as it says)."""
    head, _, rest = text.partition("\n")
    found = _GLOB_HEAD.match(head)
    paths = rest.split("\n") if rest else []
    if found is None or int(found.group(1)) != len(paths):
        return None
    return Descriptor("table", TableProps(columns=["path"], rows=[[path] for path in paths]))


def _todos(todos: object) -> Descriptor | None:
    """``write_todos``' list as a checklist; None when an item does not fit one."""
    items: list[TodoItem] = []
    for todo in todos if isinstance(todos, list) else []:
        text, status = as_str(as_map(todo).get("description")), as_map(todo).get("status")
        if text is None or not isinstance(status, str) or status not in _TODO:
            return None
        items.append(TodoItem(content=text, status=status))  # type: ignore[arg-type]
    return Descriptor("todo", TodoProps(items=items)) if items else None
