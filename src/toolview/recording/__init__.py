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
from toolview.recording.session import FLUSH_TIMEOUT, CaptureSession
from toolview.recording.stream import OutputStream

__all__ = ["CaptureSession", "OutputStream", "Recorder", "Sink", "capture"]


def capture(
    *,
    live: bool | None = None,
    to: str | None = None,
    record: str | Path | None = None,
    report: Sequence[str | Path] = (),
    title: str | None = None,
    thread_id: str | None = None,
    publish_timeout: float = FLUSH_TIMEOUT,
    token: str | None = None,
) -> CaptureSession:
    """A recorder for one run; use it as ``with`` or ``async with``.

    ``live``: draw the run in the terminal (default: when stdout is one);
    ``to``: a server (``http://HOST:PORT``, the thread named ``thread_id``) or a
    thread URL (``…/threads/ID``) to publish to, in the background, flushed at
    the end for up to ``publish_timeout`` seconds; ``token``: the server's token,
    sent to that server whatever it is — without it, ``$TOOLVIEW_TOKEN`` is sent
    only to loopback, over https or to a host in ``$TOOLVIEW_TOKEN_HOSTS``
    (``remote.token``; stderr says when it is withheld);
    ``record``: a JSON Lines file of every observation; ``report``: files
    written at the end, HTML / Markdown / text by extension.
    """
    return CaptureSession(
        live=live,
        to=to,
        record=record,
        report=report,
        title=title,
        thread_id=thread_id,
        publish_timeout=publish_timeout,
        token=token,
    )
