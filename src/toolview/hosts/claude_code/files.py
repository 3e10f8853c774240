"""Read → ``file`` (or ``image``); Edit, MultiEdit, Write, NotebookEdit → ``diff``.

Read's ``toolUseResult.file`` holds the lines without the ``N→`` prefixes the
model saw, where they start and how many the file has, so a partial read is
``truncated`` data (lines shown of the total), not prose. A change is drawn
from ``structuredPatch``; a created file as an all-added diff.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

import msgspec

from toolview.contract import Descriptor, DiffProps, FileProps, ImageProps, Truncation
from toolview.hosts.claude_code.finished import Finished, Mapped, get_int, get_str
from toolview.hosts.claude_code.patch import created_diff, unified_diff

__all__ = ["edit", "notebook_edit", "read", "strip_line_numbers", "write"]

_ARROW = "→"
_CREATED = "File created successfully"
_MAX_NOTEBOOK_DIFF_CHARS = 2_000_000


def strip_line_numbers(text: str) -> str:
    """Lines as ``   12→text`` (or ``12\\ttext``) without their numbers; others unchanged."""
    out: list[str] = []
    for line in text.split("\n"):
        head, arrow, rest = line.partition(_ARROW)
        if not arrow:
            head, arrow, rest = line.partition("\t")
        out.append(rest if arrow and head.strip().isdigit() else line)
    return "\n".join(out)


def _read_text(done: Finished, file: Mapping[str, object], path: str) -> Mapped:
    content = get_str(file, "content")
    if content is None:
        content = strip_line_numbers(done.text)
    start = get_int(file, "startLine") or get_int(done.args, "offset")
    shown, total = get_int(file, "numLines"), get_int(file, "totalLines")
    truncated: Truncation | msgspec.UnsetType = msgspec.UNSET
    if shown is not None and total is not None and shown < total:
        truncated = Truncation(shown=shown, total=total, unit="lines")
    props = FileProps(path=path, content=content, start_line=start if start else msgspec.UNSET)
    return Descriptor(kind="file", props=props, truncated=truncated), content


def read(done: Finished) -> Mapped | None:
    """The file (or slice) read, or the image read."""
    details = done.details
    file = details.get("file")
    file = file if isinstance(file, Mapping) else {}
    path = get_str(file, "filePath") or get_str(done.args, "file_path")
    if details.get("type") == "image" or (done.images and not get_str(file, "content")):
        data = get_str(file, "base64")
        mime = get_str(file, "type")
        if (data is None or mime is None) and done.images:
            data, mime = done.images[0].data, done.images[0].mime_type
        if data and mime:
            props = ImageProps(mime_type=mime, data=data, alt=path or msgspec.UNSET)
            return Descriptor(kind="image", props=props), done.text
        return None
    if path is None or details.get("type") not in (None, "text"):
        return None
    return _read_text(done, file, path)


def edit(done: Finished) -> Mapped | None:
    """Edit and MultiEdit: the hunks they applied."""
    path = get_str(done.details, "filePath") or get_str(done.args, "file_path")
    diff = unified_diff(done.details.get("structuredPatch"), path) if path else None
    if path is None or diff is None:
        return None
    return Descriptor(kind="diff", props=DiffProps(diff=diff, path=path)), done.text


def write(done: Finished) -> Mapped | None:
    """Write: a created file as all added, an overwritten one as its hunks."""
    details = done.details
    path = get_str(details, "filePath") or get_str(done.args, "file_path")
    if path is None:
        return None
    content = get_str(details, "content") or get_str(done.args, "content")
    diff = unified_diff(details.get("structuredPatch"), path)
    created = details.get("type") == "create" or (
        "type" not in details and done.text.startswith(_CREATED)  # a sub-agent's: its words
    )
    if diff is None and content is not None and created:
        diff = created_diff(content, path)
    if diff is None:
        return None
    return Descriptor(kind="diff", props=DiffProps(diff=diff, path=path)), done.text


def notebook_edit(done: Finished) -> Mapped | None:
    """NotebookEdit: the notebook's diff when both versions are recorded, else an inserted cell."""
    details = done.details
    path = get_str(details, "notebook_path") or get_str(done.args, "notebook_path")
    if path is None or get_str(details, "error"):
        return None
    before, after = get_str(details, "original_file"), get_str(details, "updated_file")
    diff: str | None = None
    if before is not None and after is not None:
        if len(before) + len(after) <= _MAX_NOTEBOOK_DIFF_CHARS:
            lines = difflib.unified_diff(
                before.splitlines(), after.splitlines(), f"a{path}", f"b{path}", lineterm=""
            )
            diff = "\n".join(lines) + "\n"
    elif details.get("edit_mode") == "insert":  # a replaced cell's old source is not recorded
        source = get_str(details, "new_source") or get_str(done.args, "new_source")
        diff = None if source is None else created_diff(source, path)
    if not diff or not diff.strip():
        return None
    return Descriptor(kind="diff", props=DiffProps(diff=diff, path=path)), done.text
