"""A command's output as a ``shell`` tool result: one combined text, two streams.

Why three windows: the result's ``text`` is the combined output in the order
it arrived (what a terminal would have shown, and what a fallback renders),
while the ``shell`` props carry stdout and stderr apart. Only the combined
window spills to a file, so ``spillPath`` holds the full interleaved output,
and the truncation descriptor describes ``text``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import msgspec

from toolview.contract import Descriptor, ShellProps, ToolCall, ToolResult
from toolview.hosts.command.output_window import OutputWindow, WindowLimits
from toolview.hosts.command.redacting import StreamRedactor
from toolview.hosts.command.utf8 import incomplete_utf8_suffix
from toolview.safety import redact

__all__ = ["ShellOutput", "StreamName", "shell_result"]

StreamName = Literal["stdout", "stderr"]


class ShellOutput:
    """Both streams of one command, windowed; builds its ``tool-result``s."""

    def __init__(
        self,
        limits: WindowLimits | None = None,
        spill_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.combined = OutputWindow(limits, spill=True, spill_dir=spill_dir)
        self.streams: dict[StreamName, OutputWindow] = {
            "stdout": OutputWindow(limits),
            "stderr": OutputWindow(limits),
        }
        self._pending: dict[StreamName, bytes] = {"stdout": b"", "stderr": b""}
        self._redactors = {"stdout": StreamRedactor(), "stderr": StreamRedactor()}

    @property
    def spill_path(self) -> Path | None:
        """The file holding the full combined output, once anything was left out."""
        return self.combined.spill_path

    @property
    def memory_bytes(self) -> int:
        """Output bytes held in memory: the three windows and the unfinished lines."""
        held = sum(r.held_bytes for r in self._redactors.values())
        return (
            held + self.combined.memory_bytes + sum(w.memory_bytes for w in self.streams.values())
        )

    def feed(self, stream: StreamName, chunk: bytes) -> None:
        """One chunk read from ``stream``, redacted before any window sees it.

        The windows get whole lines (see ``redacting``); the combined window
        only whole characters even then (a line cut for length), so the
        other stream's output cannot land inside one.
        """
        self._window(stream, self._redactors[stream].feed(chunk))

    def _window(self, stream: StreamName, chunk: bytes) -> None:
        if not chunk:
            return
        self.streams[stream].feed(chunk)
        data = self._pending[stream] + chunk if self._pending[stream] else chunk
        held = incomplete_utf8_suffix(data)
        self._pending[stream] = data[len(data) - held :] if held else b""
        self.combined.feed(data[: len(data) - held] if held else data)

    def close(self) -> None:
        """Both streams ended: what was held back goes in as it is."""
        for name, redactor in self._redactors.items():
            self._window(name, redactor.close())  # type: ignore[arg-type]
        for stream, pending in self._pending.items():
            self.combined.feed(pending)
            self._pending[stream] = b""
        self.combined.close()
        for window in self.streams.values():
            window.close()

    def result(
        self,
        call: ToolCall,
        command: str,
        complete: bool,
        *,
        exit_code: int | None = None,
        duration_ms: int | None = None,
    ) -> ToolResult:
        """The ``tool-result`` for the output so far (partial unless ``complete``).

        Its texts are redacted: an observation may be recorded, published and
        stored, so no credential leaves the runner in one.
        """
        view = self.combined.view()
        props = ShellProps(
            command=command,
            exit_code=exit_code,
            stdout=redact(self.streams["stdout"].view().text),
            stderr=redact(self.streams["stderr"].view().text),
            duration_ms=msgspec.UNSET if duration_ms is None else duration_ms,
            spill_path=msgspec.UNSET if self.spill_path is None else str(self.spill_path),
        )
        truncated = msgspec.UNSET if view.truncated is None else view.truncated
        descriptor = Descriptor(kind="shell", props=props, truncated=truncated)
        return ToolResult(
            tool_call_id=call.tool_call_id,
            tool_name=call.tool_name,
            text=redact(view.text),
            complete=complete,
            is_error=complete and exit_code != 0,
            descriptor=descriptor,
        )


def shell_result(
    call: ToolCall, command: str, text: str, *, exit_code: int, duration_ms: int
) -> ToolResult:
    """A final ``shell`` result whose whole output is ``text`` on stderr (a start failure)."""
    props = ShellProps(
        command=command, exit_code=exit_code, stdout="", stderr=text, duration_ms=duration_ms
    )
    return ToolResult(
        tool_call_id=call.tool_call_id,
        tool_name=call.tool_name,
        text=text,
        complete=True,
        is_error=exit_code != 0,
        descriptor=Descriptor(kind="shell", props=props),
    )
