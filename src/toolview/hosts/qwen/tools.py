"""A Qwen Code ``tool_result`` record → the call's final result, drawn as its kind.

The record's ``toolCallResult`` holds the ``status`` (``success``, ``error``,
``cancelled``) and the ``resultDisplay`` the CLI's screen drew; the
``functionResponse`` part beside it is the text the model got (``output``,
or ``error``). The kind comes from the display, which says more than the text:
a ``shell_result`` has the command's ``exitCode`` and its ``output`` (a
failing command is ``status: "error"`` with its code), a ``fileDiff`` is a
written or edited file, a ``todo_list`` the checklist; ``read_file``'s text
is the file. Anything else keeps its text. A status other than ``success``
is an error.
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
    TodoItem,
    TodoProps,
    ToolCall,
    ToolResult,
    Usage,
)
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.gemini.shell import ShellAnswer, shell_descriptor
from toolview.hosts.sessions import final_result

__all__ = ["result_of", "usage_of"]

_EXIT: Final = re.compile(r"^Exit Code: (\d+)$", re.MULTILINE)
_TODO: Final = frozenset({"pending", "in_progress", "completed", "cancelled"})


def result_of(
    call: ToolCall, answer: Mapping[str, object], parts: list[Mapping[str, object]], at: str | None
) -> ToolResult:
    """The final result of ``call`` from its ``toolCallResult`` and ``functionResponse``."""
    text = _response_text(parts)
    status = as_str(answer.get("status")) or _bare_status(parts, text)
    display = answer.get("resultDisplay")
    descriptor = _kind(call, as_map(display), text, ok=status == "success")
    if descriptor is not None and descriptor.kind == "shell":
        text = as_str(as_map(display).get("output")) or ""
    elif isinstance(display, str) and not text:
        text = display
    return final_result(call, text, failed=status != "success", descriptor=descriptor, at=at)


def _bare_status(parts: list[Mapping[str, object]], text: str) -> str:
    """A sub-agent's result has no ``status`` (nor display): an ``error`` answer, or a
    shell's non-zero ``Exit Code:`` line in the text, is the failure it is."""
    answers = [as_map(as_map(p.get("functionResponse")).get("response")) for p in parts]
    code = _EXIT.search(text)
    failed = any("error" in a for a in answers) or (code is not None and code[1] != "0")
    return "error" if failed else "success"


def _response_text(parts: list[Mapping[str, object]]) -> str:
    """What the model got: each ``functionResponse``'s ``output`` (else its ``error``)."""
    texts = []
    for part in parts:
        response = as_map(as_map(part.get("functionResponse")).get("response"))
        said = as_str(response.get("output")) or as_str(response.get("error"))
        if said is not None:
            texts.append(said)
    return "\n".join(texts)


def _kind(
    call: ToolCall, display: Mapping[str, object], text: str, *, ok: bool
) -> Descriptor | None:
    if display.get("type") == "shell_result":
        code = display.get("exitCode")
        exit_code = code if type(code) is int else None
        output = as_str(display.get("output")) or ""
        signal = display.get("signal")
        answer = ShellAnswer(output, exit_code, interrupted=isinstance(signal, (str, int)))
        return shell_descriptor(as_str(call.args.get("command")) or "", answer)
    if not ok:
        return None
    diff = as_str(display.get("fileDiff"))
    if diff is not None:
        path = as_str(display.get("filePath")) or as_str(call.args.get("file_path"))
        return Descriptor("diff", DiffProps(diff=diff, path=path or msgspec.UNSET))
    if display.get("type") == "todo_list":
        return _todos(display.get("todos"))
    path = as_str(call.args.get("file_path"))
    if call.tool_name == "read_file" and path is not None:
        start = call.args.get("offset")
        first = start + 1 if type(start) is int and start >= 0 else msgspec.UNSET
        return Descriptor("file", FileProps(path=path, content=text, start_line=first))
    return None


def _todos(todos: object) -> Descriptor | None:
    """``todo_write``'s list as a checklist; None when an item does not fit one."""
    items: list[TodoItem] = []
    for todo in todos if isinstance(todos, list) else []:
        content, status = as_str(as_map(todo).get("content")), as_map(todo).get("status")
        if content is None or not isinstance(status, str) or status not in _TODO:
            return None
        items.append(TodoItem(content=content, status=status))  # type: ignore[arg-type]
    return Descriptor("todo", TodoProps(items=items)) if items else None


def usage_of(model: str, usage: Mapping[str, object], run_id: str | None) -> Usage:
    """One response's ``usageMetadata``: cached tokens are inside the prompt count and
    thoughts beside the answer, so input is the prompt less the cache, output both."""
    count = {k: v for k, v in usage.items() if type(v) is int and v >= 0}
    cached = count.get("cachedContentTokenCount", 0)
    return Usage(
        model=model,
        input_tokens=max(0, count.get("promptTokenCount", 0) - cached),
        output_tokens=count.get("candidatesTokenCount", 0) + count.get("thoughtsTokenCount", 0),
        cache_read_tokens=cached if "cachedContentTokenCount" in count else msgspec.UNSET,
        run_id=run_id or msgspec.UNSET,
    )
