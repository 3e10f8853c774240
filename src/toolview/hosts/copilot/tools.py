"""A Copilot CLI ``tool.execution_complete`` event → the call's final result, as its kind.

The event says ``success`` and holds the ``result`` (``content``: the text the
model got; ``detailedContent``: what the CLI's screen drew — a git diff for a
file created or edited) or an ``error`` (``message``). ``bash`` adds
``shellExecution.exitCode``: a command exiting non-zero is recorded as
``success: true`` (1.0.102), with the code only there and in the text's last
line (``<shellId: N completed with exit code N>``), so the failure is decided
from the code. ``view``'s text is the file; ``create``/``edit``/``apply_patch``
draw their diff. Anything else keeps its text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, DiffProps, FileProps, ToolCall, ToolResult, Usage
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.gemini.shell import ShellAnswer, shell_descriptor
from toolview.hosts.sessions import final_result

__all__ = ["result_of", "usage_of"]

_SHELLS: Final = frozenset({"bash", "powershell"})
_EDITS: Final = frozenset({"create", "edit", "str_replace", "apply_patch"})
_SHELL_TAIL: Final = re.compile(r"\n?<shellId: [^>\n]{1,40} (?:completed|exited)[^>\n]{0,80}>\Z")


def result_of(call: ToolCall, data: Mapping[str, object], at: str | None) -> ToolResult:
    """The final result of ``call`` from its completion event's ``data``."""
    result, error = as_map(data.get("result")), as_map(data.get("error"))
    text = as_str(result.get("content")) or as_str(error.get("message")) or ""
    failed = data.get("success") is not True
    descriptor: Descriptor | None = None
    if call.tool_name in _SHELLS:
        code = as_map(data.get("shellExecution")).get("exitCode")
        exit_code = code if type(code) is int else None
        text = _SHELL_TAIL.sub("", text)
        descriptor = shell_descriptor(as_str(call.args.get("command")) or "", _shell(text, code))
        failed = failed or exit_code not in (None, 0)
    elif not failed:
        descriptor = _kind(call, result, text)
    return final_result(call, text, failed=failed, descriptor=descriptor, at=at)


def _shell(text: str, code: object) -> ShellAnswer:
    return ShellAnswer(text, code if type(code) is int else None)


def _kind(call: ToolCall, result: Mapping[str, object], text: str) -> Descriptor | None:
    path = as_str(call.args.get("path"))
    detailed = as_str(result.get("detailedContent"))
    if call.tool_name in _EDITS and detailed and "\n@@ " in detailed:
        diff = detailed[detailed.find("--- ") :] if "\n--- " in detailed else detailed.lstrip()
        return Descriptor("diff", DiffProps(diff=diff, path=path or msgspec.UNSET))
    if call.tool_name == "view" and path is not None:
        lines = call.args.get("view_range")
        first = lines[0] if isinstance(lines, list) and lines and type(lines[0]) is int else None
        start = first if first is not None and first >= 1 else msgspec.UNSET
        return Descriptor("file", FileProps(path=path, content=text, start_line=start))
    return None


def usage_of(usage: Mapping[str, object], run_id: str | None) -> Usage | None:
    """One model request's usage (``session.usage_record``'s ``usage``); None without a model.
    Copilot's ``inputTokens`` hold the tokens read from and written to the cache (its own
    ``inputTokensUncached`` is the rest, 1.0.102's cli-main.js): input is that rest."""
    model = as_str(usage.get("model"))
    if not model:
        return None
    count = {k: v for k, v in usage.items() if type(v) is int and v >= 0}
    cached, written = count.get("cacheReadTokens", 0), count.get("cacheWriteTokens", 0)
    return Usage(
        model=model,
        input_tokens=max(0, count.get("inputTokens", 0) - cached - written),
        output_tokens=count.get("outputTokens", 0),
        cache_read_tokens=cached if "cacheReadTokens" in count else msgspec.UNSET,
        cache_write_tokens=count.get("cacheWriteTokens", msgspec.UNSET),
        run_id=run_id or msgspec.UNSET,
    )
