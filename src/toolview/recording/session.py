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

from toolview.recording.recorder import Recorder
from toolview.recording.reports import write_reports
from toolview.recording.sinks import RecordFile

__all__ = ["CaptureSession"]


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
    ) -> None:
        super().__init__(title=title, thread_id=thread_id)
        self._live = live
        self._to = to
        self._record = Path(record) if record is not None else None
        self._report = [
            Path(path) for path in ([report] if isinstance(report, str | Path) else report)
        ]
        self._files: list[RecordFile] = []

    def start(self) -> None:
        """Open the sinks, then the run."""
        with self._lock:
            if self._started:
                return
            if self._record is not None:
                record = RecordFile(self._record)
                self._files.append(record)
                self.add_sink(record)
        super().start()

    def end(self, exc: BaseException | None = None) -> None:
        """Close the run, then every sink; write the reports."""
        with self._lock:
            if self._ended:
                return
            super().end(exc)
            for record in self._files:
                record.close()
            if self._report:
                for problem in write_reports(self._thread, self._report, self.title):
                    print(f"toolview: {problem}", file=sys.stderr)
