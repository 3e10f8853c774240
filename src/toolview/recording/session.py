"""``CaptureSession``: a ``Recorder`` plus where its observations go.

Why apart from the recorder: the recorder is the API a loop or an adapter
calls; this decides, once, at ``with``, what to do with what it records —
a record file, a live terminal view, a server, reports at the end — and
undoes it all at exit, whatever happened, without raising into the agent.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from toolview.contract import Observation
from toolview.recording.recorder import Recorder
from toolview.recording.reports import write_reports
from toolview.recording.sinks import RecordFile

if TYPE_CHECKING:
    from toolview.recording.publishing import Publishing

__all__ = ["FLUSH_TIMEOUT", "CaptureSession", "ClosingSink"]

FLUSH_TIMEOUT = 10.0
"""Seconds ``to=`` keeps trying, at the end of the run, to publish what is left."""


class ClosingSink(Protocol):
    """Takes every observation; ``close`` at the end of the run."""

    def __call__(self, observation: Observation) -> None: ...

    def close(self) -> None: ...


class CaptureSession(Recorder):
    """A recorder that records to a file, draws, publishes and reports (see ``capture``)."""

    def __init__(
        self,
        *,
        live: bool | None = None,
        to: str | None = None,
        record: str | Path | None = None,
        report: Sequence[str | Path] = (),
        title: str | None = None,
        thread_id: str | None = None,
        publish_timeout: float = FLUSH_TIMEOUT,
        token: str | None = None,
    ) -> None:
        super().__init__(title=title, thread_id=thread_id)
        self._live = sys.stdout.isatty() if live is None else bool(live)
        self._record = Path(record) if record is not None else None
        reports = [report] if isinstance(report, str | Path) else list(report)
        self._reports = [Path(path) for path in reports]
        self._closing: list[ClosingSink] = []
        self.publishing: Publishing | None = None
        """The server this run is published to (``to=``), where a waiting call is decided."""
        self.page_url: str | None = None
        """Where the run is watched live (with ``to=``), else ``None``."""
        if to is not None:  # a bad URL is said now, before the agent runs
            from toolview.recording.publishing import Publishing  # httpx: only with to=

            publishing = Publishing(to, self.thread_id, publish_timeout, token)
            self.publishing, self.page_url = publishing, publishing.page_url

    def start(self) -> None:
        """Open the sinks, then the run."""
        with self._lock:
            if self._started:
                return
            if self._record is not None:
                self._add_closing(RecordFile(self._record))
            if self.publishing is not None:
                self._add_closing(self.publishing)
            if self._live:
                from toolview.recording.live import LiveTerminal

                self._add_closing(LiveTerminal())
        super().start()

    def _add_closing(self, sink: ClosingSink) -> None:
        self._closing.append(sink)
        self.add_sink(sink)

    def end(self, exc: BaseException | None = None) -> None:
        """Close the run, then every sink (the live view first); write the reports."""
        with self._lock:
            if self._ended:
                return
            super().end(exc)
            for sink in reversed(self._closing):
                try:
                    sink.close()
                except Exception as error:  # a sink's failure is said, never raised
                    print(f"toolview: {type(error).__name__}: {error}", file=sys.stderr)
            for problem in write_reports(self._folding.thread, self._reports, self.title):
                print(f"toolview: {problem}", file=sys.stderr)
