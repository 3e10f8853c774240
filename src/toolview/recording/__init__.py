"""``capture()``: three lines to show any Python agent's tool calls.

```python
with toolview.recording(report=["run.html"]) as rec:
    rec.call("1", "read_file", {"path": "a.txt"})
    rec.result("1", open("a.txt").read())
```

A ``Recorder`` owns one run's ``Thread``; ``capture`` adds what to do with it:
draw it live in the terminal, publish it to a server, record it to a file,
write reports at the end. Framework adapters hang off the recorder
(``rec.pydantic_ai()``, ``rec.mcp(session)`` …).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolview.recording.recorder import Recorder, Sink
from toolview.recording.session import CaptureSession
from toolview.recording.stream import OutputStream

__all__ = ["OutputStream", "Recorder", "Sink", "capture"]


def capture(
    *,
    live: bool | None = None,
    to: str | None = None,
    record: str | Path | None = None,
    report: Sequence[str | Path] = (),
    title: str | None = None,
    thread_id: str | None = None,
) -> Recorder:
    """A recorder for one run; use it as ``with`` or ``async with``."""
    return CaptureSession(
        live=live, to=to, record=record, report=report, title=title, thread_id=thread_id
    )
