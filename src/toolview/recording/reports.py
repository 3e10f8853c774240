"""Reports written at the end of a capture: HTML, Markdown or text, by file extension.

Why by extension: ``report=["run.html", "run.md"]`` says everything; a name
with another extension is the text surface (and says so nowhere else). A
report is written as the record is (``toolview.private_files``, regular files
only): 0600, never through a planted link, never into a FIFO or a device.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolview.contract import Thread
from toolview.private_files import open_private

__all__ = ["render_report", "write_reports"]


def render_report(thread: Thread, path: Path, title: str | None) -> str:
    """The report for ``path``'s extension: ``.html``/``.htm``, ``.md``/``.markdown``, else text."""
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        from toolview.render.html import render_page

        return render_page(thread, title=title or "toolview")
    if suffix in (".md", ".markdown"):
        from toolview.render.markdown import render_thread as markdown

        return markdown(thread)
    from toolview.render.text import render_thread as text

    return text(thread)


def write_reports(thread: Thread, paths: Sequence[Path], title: str | None) -> list[str]:
    """Write every report; return what could not be written (never raises)."""
    problems: list[str] = []
    for path in paths:
        try:
            report = render_report(thread, path, title).encode("utf-8")
            with open_private(path, only_regular=True) as stream:
                stream.write(report)
        except Exception as exc:
            problems.append(f"cannot write the report {path}: {type(exc).__name__}: {exc}")
    return problems
