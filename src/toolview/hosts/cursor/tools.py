"""A Cursor agent ``tool_call`` ``completed`` event's ``result`` → the call's final result.

The result is one of ``success`` (what the tool gave back), ``error``
(``errorMessage``) or ``rejected`` (the user or a rule refused it); community
parsers also show ``failure`` for a command that exited non-zero. The shell's
answer carries ``exitCode``, ``stdout`` and ``stderr``: a non-zero code is a
failure whatever the key. ``read`` gives the file's ``content``; ``write`` its
``fileText`` (drawn as a new file's diff); ``edit`` a ``diffString`` or its
``strReplace``; ``todo`` the plan; ``glob``/``ls`` a list of paths, ``grep`` its matches
(tables).
Anything else keeps its JSON as text: nothing is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, ShellProps, TableProps, ToolCall, ToolResult, Usage
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.cursor.shapes import diff_of, file_of, matches_of, paths_of, todo_of
from toolview.hosts.sessions import final_result

__all__ = ["result_of", "usage_of"]

_OUTCOMES: Final = ("success", "failure", "error", "rejected")


def result_of(call: ToolCall, result: Mapping[str, object], at: str | None) -> ToolResult:
    """The final result of ``call`` from its completed event's ``result``."""
    outcome = next((key for key in _OUTCOMES if key in result), None)
    answer = as_map(result.get(outcome)) if outcome else {}
    failed = outcome != "success"
    if call.tool_name == "shell" and outcome in ("success", "failure"):
        props = _shell(call, answer)
        failed = failed or props.exit_code not in (None, 0)
        text = "\n".join(part for part in (props.stdout, props.stderr) if part)
        return final_result(call, text, failed=failed, descriptor=Descriptor("shell", props), at=at)
    if failed:
        said = as_str(answer.get("errorMessage")) or as_str(answer.get("reason"))
        return final_result(call, said or _json(answer), failed=True, descriptor=None, at=at)
    descriptor = _kind(call, answer)
    read = as_str(answer.get("content")) if call.tool_name == "read" else None
    return final_result(call, read or _json(answer), failed=False, descriptor=descriptor, at=at)


def _shell(call: ToolCall, answer: Mapping[str, object]) -> ShellProps:
    code, took = answer.get("exitCode"), answer.get("executionTime")
    return ShellProps(
        command=as_str(call.args.get("command")) or as_str(answer.get("command")) or "",
        exit_code=code if type(code) is int else None,
        stdout=as_str(answer.get("stdout")) or "",
        stderr=as_str(answer.get("stderr")) or "",
        duration_ms=took if type(took) is int and took >= 0 else msgspec.UNSET,
    )


def _kind(call: ToolCall, answer: Mapping[str, object]) -> Descriptor | None:
    name, args = call.tool_name, call.args
    if name == "read":
        return file_of(args, answer)
    if name in ("write", "edit"):
        return diff_of(name, args, answer)
    if name == "todo":
        return todo_of(args, answer)
    if name in ("glob", "ls"):
        rows = paths_of(answer)
        return Descriptor("table", TableProps(columns=["path"], rows=rows)) if rows else None
    if name == "grep" and (hits := matches_of(answer)):
        return Descriptor("table", TableProps(columns=["file", "line", "text"], rows=hits))
    return None


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1) if value else ""


def usage_of(usage: Mapping[str, object], model: str | None, run_id: str | None) -> Usage | None:
    """A run's token counts (``result``'s ``usage``, when a version writes one); None
    without counts or a model to name."""
    count = {k: v for k, v in usage.items() if type(v) is int and v >= 0}
    if not model or not count:
        return None
    cached, written = count.get("cacheReadTokens"), count.get("cacheWriteTokens")
    return Usage(
        model=model,
        input_tokens=count.get("inputTokens", count.get("input_tokens", 0)),
        output_tokens=count.get("outputTokens", count.get("output_tokens", 0)),
        cache_read_tokens=msgspec.UNSET if cached is None else cached,
        cache_write_tokens=msgspec.UNSET if written is None else written,
        run_id=run_id or msgspec.UNSET,
    )
