"""A finished Codex call as a ``tool-result`` with typed props.

Shell calls become ``shell``, ``apply_patch`` a ``diff``, ``update_plan`` a
``todo`` checklist, an MCP tool's call what the MCP host makes of its result;
any other call keeps its output as text, or as ``json`` when the output is a
JSON object or array (the sub-agent tools answer so).
Whatever does not fit its kind's props stays plain text, visibly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import msgspec

from toolview.contract import (
    Descriptor,
    DiffProps,
    JsonProps,
    ShellProps,
    TodoItem,
    TodoProps,
    ToolResult,
    Truncation,
)
from toolview.hosts.codex.failures import reported_failure
from toolview.hosts.codex.fields import as_map, as_str, content_text
from toolview.hosts.codex.mcp import is_mcp_end, mcp_result
from toolview.hosts.codex.patch import changes_diff, patch_text_diff
from toolview.hosts.codex.shell import (
    PERSISTENCE_MARKER,
    SHELL_TOOLS,
    ShellOutcome,
    command_text,
    from_end,
    from_output,
)

__all__ = ["PendingCall", "output_text", "tool_result"]

_TODO_STATUS: Final = {"pending": "pending", "in_progress": "in_progress", "completed": "completed"}


@dataclass
class PendingCall:
    """A call seen, its result not yet: what the result will need."""

    call_id: str
    name: str  # the bare tool name, which decides the kind
    tool_name: str  # as shown: ``namespace.name`` for a namespaced tool
    args: dict[str, object]
    end: Mapping[str, object] | None = None  # the end record (exec/patch end, item_completed)
    changes: object = None  # a ``patch_apply_begin``'s changes


def output_text(output: object) -> tuple[str, bool]:
    """A ``*_call_output``'s text and whether it said it failed (``success: false``)."""
    if isinstance(output, Mapping):
        failed = output.get("success") is False
        return content_text(output.get("content")), failed
    return content_text(output), False


def tool_result(
    call: PendingCall, output: str | None, *, failed: bool, cwd: str | None, at: str | None
) -> ToolResult:
    """The final result of ``call`` from its end record and/or its output text."""
    if call.end is not None and is_mcp_end(call.end):
        mapped = mcp_result(call.call_id, call.tool_name, call.end, at)
        if mapped is not None:
            return mapped
    descriptor: Descriptor | None
    if call.name in SHELL_TOOLS:
        text, error, descriptor = _shell(call, output)
    elif call.name == "apply_patch":
        text, error, descriptor = _patch(call, output, cwd)
    else:
        text, error, descriptor = output or "", False, _other(call, output or "")
    return ToolResult(
        tool_call_id=call.call_id,
        tool_name=call.tool_name,
        text=text,
        complete=True,
        is_error=failed or error or reported_failure(call.name, output or ""),
        descriptor=msgspec.UNSET if descriptor is None else descriptor,
        at=msgspec.UNSET if at is None else at,
    )


def _shell(call: PendingCall, output: str | None) -> tuple[str, bool, Descriptor]:
    told = from_output(output) if output is not None else None
    outcome = from_end(call.end) if call.end is not None else told
    if outcome is None:
        outcome = ShellOutcome(output="", stdout="", stderr="")
    elif told is not None:
        outcome = outcome.merged(told)
    running = outcome.exit_code is None and outcome.session_id is not None
    props = ShellProps(
        command=command_text(call.args) or command_text(call.end or {}),
        exit_code=outcome.exit_code,
        stdout=outcome.stdout,
        stderr=outcome.stderr,
        duration_ms=msgspec.UNSET if outcome.duration_ms is None else outcome.duration_ms,
        background_task_id=outcome.session_id if running and outcome.session_id else msgspec.UNSET,
        interrupted=True if outcome.interrupted else msgspec.UNSET,
    )
    error = outcome.exit_code not in (None, 0) or outcome.interrupted
    return outcome.output, error, Descriptor("shell", props, _truncation(outcome))


def _truncation(outcome: ShellOutcome) -> Truncation | msgspec.UnsetType:
    """Lines shown of the command's total when Codex cut the output and said how much.

    A rollout keeps at most 64 KiB of a command's output (head and tail around
    a ``... truncated for persistence ...`` line); the model's copy is cut by
    tokens. The total comes from ``Total output lines: N`` where Codex wrote it.
    """
    total = outcome.total_lines
    if total is None:
        return msgspec.UNSET
    shown = sum(1 for line in outcome.output.splitlines() if line != PERSISTENCE_MARKER)
    return Truncation(shown=shown, total=total, unit="lines") if shown < total else msgspec.UNSET


def _patch(
    call: PendingCall, output: str | None, cwd: str | None
) -> tuple[str, bool, Descriptor | None]:
    end = call.end or {}
    stdout, stderr = end.get("stdout"), end.get("stderr")
    told = from_output(output) if output is not None else None
    if isinstance(stdout, str) or isinstance(stderr, str):
        text = "".join(s for s in (stdout, stderr) if isinstance(s, str))
    else:
        text = told.output if told is not None else ""
    status, success = end.get("status"), end.get("success")
    error = success is False or status in ("failed", "declined")
    error = error or (told is not None and told.exit_code not in (None, 0))
    diff = changes_diff(end.get("changes") or call.changes, cwd)
    patch = call.args.get("input")
    if diff is None and isinstance(patch, str):
        diff = patch_text_diff(patch)
    return text, error, None if diff is None else Descriptor("diff", DiffProps(diff=diff))


def _other(call: PendingCall, text: str) -> Descriptor | None:
    if call.name == "update_plan":
        return _plan(call.args)
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return Descriptor("json", JsonProps(value=value)) if isinstance(value, dict | list) else None


def _plan(args: Mapping[str, object]) -> Descriptor | None:
    """``update_plan``'s steps as a checklist; None when a step does not fit one."""
    plan = args.get("plan")
    if not isinstance(plan, list):
        return None
    items = []
    for step in plan:
        content, status = as_str(as_map(step).get("step")), as_map(step).get("status")
        if content is None or not isinstance(status, str) or status not in _TODO_STATUS:
            return None
        items.append(TodoItem(content=content, status=_TODO_STATUS[status]))  # type: ignore[arg-type]
    return Descriptor("todo", TodoProps(items=items))
