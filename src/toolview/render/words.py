"""Surface-neutral wording: sizes, durations, exit codes, placeholders, notes.

Every surface says these things the same way, so a terminal and a web page
never disagree about what happened; only the layout around the words differs.
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias

from toolview.contract import ImageProps, RunOutcome, TableProps
from toolview.contract.blocks import AudioBlock, ImageBlock, Progress, ResourceBlock, UiBlock
from toolview.render.bodies import SubAgent
from toolview.render.clean import clean_field
from toolview.render.limits import Omission, omission_text
from toolview.render.receipt import Receipt
from toolview.render.summary import Summary, SummaryPart

__all__ = [
    "ReceiptRole",
    "aborted_text",
    "duration_text",
    "exit_text",
    "fallback_note",
    "human_bytes",
    "image_label",
    "is_record_list",
    "media_label",
    "omission_line",
    "progress_text",
    "receipt_segments",
    "receipt_text",
    "records_table",
    "resource_label",
    "sub_headline",
    "summary_segments",
    "summary_text",
    "ui_notice",
]

_UNITS: Final = ("B", "KB", "MB", "GB", "TB")


def human_bytes(size: int) -> str:
    """``67 B``, ``4.0 KB``, ``1.5 MB`` (binary multiples, one decimal)."""
    value = float(size)
    for unit in _UNITS:
        if value < 1024 or unit == _UNITS[-1]:
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def duration_text(duration_ms: int) -> str:
    """``12 ms``, ``3.4 s``, ``2 min 5 s``."""
    if duration_ms < 1000:
        return f"{duration_ms} ms"
    if duration_ms < 60_000:
        return f"{duration_ms / 1000:.1f} s"
    minutes, seconds = divmod(duration_ms // 1000, 60)
    return f"{minutes} min {seconds} s"


def exit_text(exit_code: int | None) -> str:
    """How a command ended, in words."""
    return "no exit code (did not exit)" if exit_code is None else f"exit code {exit_code}"


def image_label(props: ImageProps) -> str:
    """The placeholder for an image a surface does not show: ``[image/png 4.0 KB]``."""
    data = props.data.strip()
    size = len(data) * 3 // 4 - data[-2:].count("=")
    mime = clean_field(props.mime_type, 100) or "image"
    return f"[{mime} {human_bytes(max(size, 0))}]"


def aborted_text(outcome: RunOutcome | None, reason: str | None = None) -> str:
    """Why an aborted call has no result; ``reason`` (cleaned) is the run's own word."""
    how = {"completed": "", "aborted": "aborted", "error": "with an error"}.get(outcome or "", "")
    said = ": ".join(part for part in (how, reason) if part)
    return f"The run ended{f' ({said})' if said else ''} before this call returned a result."


def fallback_note(note: str) -> str:
    """A fallback's note as a sentence: the text below is shown instead of the kind."""
    return f"{note}; showing the text"


def is_record_list(value: Any) -> bool:
    """Whether ``value`` is a non-empty list of JSON objects (shown as a table)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) for item in value[:200])
        and len(value) <= 200
    )


def records_table(records: list[dict[str, Any]]) -> TableProps:
    """A list of JSON objects as table props: columns in first-seen key order."""
    columns: list[str] = []
    for record in records:
        columns.extend(key for key in record if key not in columns)
    rows = [[record.get(column) for column in columns] for record in records]
    return TableProps(columns=columns, rows=rows)


def media_label(block: ImageBlock | AudioBlock) -> str:
    """``[image/png 4.0 KB]`` — what a surface shows instead of the media."""
    kind = "image" if isinstance(block, ImageBlock) else "audio"
    mime = clean_field(block.mime_type, 100) or kind
    size = f" {human_bytes(block.size)}" if isinstance(block.size, int) and block.size >= 0 else ""
    return f"[{mime}{size}]"


def resource_label(block: ResourceBlock) -> str:
    """``resource file:///a.txt (text/plain)``, with a blob's size when it has one."""
    mime = f" ({clean_field(block.mime_type, 100)})" if isinstance(block.mime_type, str) else ""
    blob = block.blob_size
    size = f" [blob {human_bytes(blob)} — not shown]" if isinstance(blob, int) and blob >= 0 else ""
    return f"resource {clean_field(block.uri, 500)}{mime}{size}"


def ui_notice(block: UiBlock) -> str:
    """The notice for a server's interactive UI, which toolview never renders."""
    return f"interactive UI {clean_field(block.resource_uri, 500)} — not rendered"


def progress_text(progress: Progress) -> str:
    """``progress 3/10 — copying`` (or ``progress 3`` without a total)."""
    total = f"/{progress.total:g}" if isinstance(progress.total, float | int) else ""
    message = (
        f" — {clean_field(progress.message, 300, 'space')}"
        if isinstance(progress.message, str)
        else ""
    )
    return f"progress {progress.progress:g}{total}{message}"


def omission_line(shown: Omission | None, tool: Omission | None) -> str | None:
    """What was left out, as ONE line, when a surface cut next to the tool's own cut.

    ``shown`` is what this surface left out, ``tool`` what the tool's
    descriptor says never reached toolview. Same unit: one total, with the
    tool's share named ("… 9,900 more lines (9,000 not in the result)");
    different units cannot be summed, so both are said ("… 12 more characters,
    and 9,000 more lines not in the result"). Only one: the usual wording.
    """
    if shown is None or tool is None:
        either = shown or tool
        return str(either) if either is not None else None
    if shown.unit == tool.unit:
        total = omission_text(shown.count + tool.count, shown.unit)
        return f"{total} ({tool.count:,} not in the result)"
    return f"{shown}, and {omission_text(tool.count, tool.unit)[2:]} not in the result"


ReceiptRole: TypeAlias = Literal["icon", "tool", "glue", "guard", "reason", "args"]


def receipt_segments(receipt: Receipt) -> list[tuple[str, ReceiptRole]]:
    """The receipt's one line in pieces, each with its role, for a surface to style.

    ``⊘ bash refused by rules.toml: destructive · { "command": "rm -rf build" }``
    """
    segments: list[tuple[str, ReceiptRole]] = [
        (receipt.display.icon, "icon"),
        (" ", "glue"),
        (receipt.tool_name, "tool"),
        (" refused", "glue"),
    ]
    if receipt.guard:
        segments += [(" by ", "glue"), (receipt.guard, "guard")]
    segments += [(": ", "glue"), (receipt.reason, "reason")]
    if receipt.args:
        segments += [(" · ", "glue"), (receipt.args, "args")]
    return segments


def receipt_text(receipt: Receipt) -> str:
    """The receipt as one plain line (the pieces of ``receipt_segments`` joined)."""
    return "".join(text for text, _ in receipt_segments(receipt))


def summary_segments(summary: Summary) -> list[tuple[str, SummaryPart | None]]:
    """``9 calls: 6 succeeded, 1 failed, 1 refused, 1 running`` in pieces.

    A piece that counts one outcome carries its ``SummaryPart`` (for its
    colour); the glue between carries ``None``.
    """
    noun = "call" if summary.total == 1 else "calls"
    colon = ": " if summary.parts else ""  # no calls: a summary of time and tokens only
    segments: list[tuple[str, SummaryPart | None]] = [(f"{summary.total:,} {noun}{colon}", None)]
    for index, part in enumerate(summary.parts):
        if index:
            segments.append((", ", None))
        segments.append((f"{part.count:,} {part.words}", part))
    return segments


def summary_text(summary: Summary) -> str:
    """The summary as one plain line."""
    return "".join(text for text, _ in summary_segments(summary))


def sub_headline(sub: SubAgent) -> str:
    """``sub-agent Explore: Find config — 3 calls, 1 failed · 4.2 s``, or the depth's cut line."""
    if sub.cut is not None:
        return sub.cut
    duration = f" · {duration_text(sub.duration_ms)}" if sub.duration_ms is not None else ""
    return f"{sub.title} — {sub.counts}{duration}"
