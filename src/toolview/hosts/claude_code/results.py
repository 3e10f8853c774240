"""A ``tool_result`` block → the call's final ``tool-result``.

The block's content is read (text, images), an error's ``<tool_use_error>``
tags removed, a stored output's preview replaced by the stored file when it is
there, then the tool's mapper picks the kind. A mapper that fails costs
nothing but its kind: the result's text stands, and a note says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import StoredOutput, ToolResult
from toolview.hosts.claude_code.content import persisted_name, read_content, strip_error_tags
from toolview.hosts.claude_code.finished import Finished, get_int
from toolview.hosts.claude_code.shell import exit_said
from toolview.hosts.claude_code.stored import NOT_HERE, ReadStored, StoredOutputs
from toolview.hosts.claude_code.tasks import TaskBoard
from toolview.hosts.claude_code.tools import result_observation

__all__ = ["Results"]

_NOT_READ: Final = (
    "\n[note: the whole output was stored in {name}, which is not read ({why}): "
    "only its preview is shown]"
)
_NOT_HERE: Final = (
    "\n[note: the whole output was stored in {name}, which is not here: only its preview is shown]"
)


class Results:
    """Builds results; keeps what spans calls (the task board)."""

    def __init__(self, notes: list[str], read_stored: ReadStored | None) -> None:
        self._notes = notes
        self._read_stored = read_stored
        self._tasks = TaskBoard()

    def result(
        self,
        call_id: str,
        name: str,
        args: Mapping[str, object],
        block: Mapping[str, object],
        detail: object,
        note: str = "",
    ) -> tuple[Finished, ToolResult]:
        """The finished call as read, and its ``tool-result`` (not yet stamped)."""
        done = self._finished(name, args, block, detail, note)
        try:
            result = result_observation(call_id, done, block.get("content"), self._tasks)
            return done, self._said_stored(result, block, done)
        except Exception as exc:  # a mapper's bug must not cost the result: its text stands
            self._notes.append(
                f"call {call_id[:60]}: its result could not be mapped ({type(exc).__name__})"
            )
            plain = ToolResult(
                tool_call_id=call_id,
                tool_name=name,
                text=done.text,
                complete=True,
                is_error=done.is_error,
            )
            return done, plain

    def _finished(
        self,
        name: str,
        args: Mapping[str, object],
        block: Mapping[str, object],
        detail: object,
        note: str,
    ) -> Finished:
        content = read_content(block.get("content"))
        self._notes.extend(content.notes)
        is_error = block.get("is_error") is True
        if name == "Bash" and not is_error:
            is_error = exit_said(content.text, detail)
        text = strip_error_tags(content.text) if is_error else content.text
        text, stored = self._stored(text)
        if note:
            text += f"\n[note: {note}]"
        return Finished(name, args, text, is_error, detail, content.images, stored)

    def _said_stored(
        self, result: ToolResult, block: Mapping[str, object], done: Finished
    ) -> ToolResult:
        """The result saying where its output was stored apart, and its size, when it was."""
        if done.stored is None:
            return result
        content = read_content(block.get("content")).text
        path = persisted_name(content)
        if path is None:  # an error's tags stripped first: read as _finished read it
            path = persisted_name(strip_error_tags(content))
        if path is None:
            return result
        size, whole = get_int(done.details, "persistedOutputSize"), done.stored is True
        if isinstance(self._read_stored, StoredOutputs):  # the file's own size, when it was read
            size = self._read_stored.size(path) or size
            whole = whole and (size is None or size <= self._read_stored.limit)  # else it was cut
        stored = StoredOutput(path=path, whole=whole, size=size)
        return msgspec.structs.replace(result, stored=stored)

    def _stored(self, text: str) -> tuple[str, bool | None]:
        """The whole output when it was stored apart and is here; else the preview, said so.

        A stored file refused (a link, a FIFO, a bad name) says why: a session
        folder someone handed you may hold one on purpose.
        """
        name = persisted_name(text)
        if name is None:
            return text, None
        whole = self._read_stored(name) if self._read_stored is not None else NOT_HERE
        if isinstance(whole, str):
            return whole, True
        if whole == NOT_HERE:
            return text + _NOT_HERE.format(name=name), False
        return text + _NOT_READ.format(name=name, why=whole.why), False
