"""Glob, Grep, LS → ``table`` or ``file``; WebFetch → ``markdown``; WebSearch → ``links``.

A listing that Claude Code cut without saying how much there was (Glob's
``truncated``, Grep's ``appliedLimit``) stays as the tool's text, whose own
words say it was cut: a table would show a partial list as if it were whole.
A sub-agent's results carry no ``toolUseResult``: its listings are read from
the text, and kept as text when it says anything but paths.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolview.contract import Descriptor, FileProps, Link, LinksProps, MarkdownProps, TableProps
from toolview.hosts.claude_code.finished import Finished, Mapped, get_str

__all__ = ["glob", "grep", "ls", "web_fetch", "web_search"]


def _kind(kind: str, props: msgspec.Struct, text: str) -> Mapped:
    return Descriptor(kind=kind, props=props), text


def _paths(value: object) -> list[list[object]] | None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return [[item] for item in value]


def _text_paths(text: str, skip_first: bool = False) -> list[list[object]] | None:
    """Paths listed one a line in the tool's text (a sub-agent's results have no details).

    ``None`` when the text says anything else (no files, a cut): the text then stands.
    """
    lines = [line for line in text.split("\n") if line]
    if skip_first:
        if not lines or not lines[0].startswith("Found "):
            return None
        lines = lines[1:]
    if not lines or any(line.startswith(("(", "No files")) for line in lines):
        return None
    return [[line] for line in lines]


def glob(done: Finished) -> Mapped | None:
    """The paths found, one row each."""
    if not done.details:
        rows = _text_paths(done.text)
    elif done.details.get("truncated") is True:
        return None
    else:
        rows = _paths(done.details.get("filenames"))
    if rows is None:
        return None
    return _kind("table", TableProps(columns=["path"], rows=rows), done.text)


def _grep_rows(content: str) -> list[list[object]] | None:
    """``path:line:text`` lines as rows; ``None`` when any line is not of that shape."""
    rows: list[list[object]] = []
    for line in content.split("\n"):
        if not line:
            continue
        path, colon, rest = line.partition(":")
        number, colon2, text = rest.partition(":")
        if not colon or not colon2 or not number.isdigit():
            return None
        rows.append([path, int(number), text])
    return rows


def _count_rows(content: str) -> list[list[object]] | None:
    rows: list[list[object]] = []
    for line in content.split("\n"):
        path, colon, number = line.rpartition(":")
        if line and (not colon or not number.isdigit()):
            return None
        if line:
            rows.append([path, int(number)])
    return rows


def grep(done: Finished) -> Mapped | None:
    """Files matched (a table), matching lines (a table, or the output as a file), or counts."""
    details = done.details
    if details.get("appliedLimit") is not None:
        return None
    mode = details.get("mode") if details else done.args.get("output_mode", "files_with_matches")
    content = get_str(details, "content") if details else done.text
    if not details and _grep_rows(done.text):
        mode = "content"  # matching lines, whatever mode the call asked for
    if mode == "content" and content is not None:
        rows = _grep_rows(content)
        if rows is not None and rows:
            return _kind("table", TableProps(columns=["path", "line", "text"], rows=rows), content)
        path = get_str(done.args, "path") or get_str(done.args, "pattern") or "grep"
        return _kind("file", FileProps(path=path, content=content), content)
    if mode == "count" and content is not None:
        counted = _count_rows(content)
        if counted is None:
            return None
        return _kind("table", TableProps(columns=["path", "matches"], rows=counted), done.text)
    if details:
        rows_of_paths = _paths(details.get("filenames"))
    else:
        rows_of_paths = _text_paths(done.text, skip_first=True)
    if rows_of_paths is None:
        return None
    return _kind("table", TableProps(columns=["path"], rows=rows_of_paths), done.text)


def ls(done: Finished) -> Mapped | None:
    """LS (older Claude Code): the listing as it was written, a tree in text."""
    path = get_str(done.args, "path")
    if path is None or not done.text:
        return None
    return _kind("file", FileProps(path=path, content=done.text), done.text)


def web_fetch(done: Finished) -> Mapped | None:
    """What the fetch's model said of the page: Markdown."""
    result = get_str(done.details, "result")
    markdown = result if result is not None else done.text
    if not markdown:
        return None
    return _kind("markdown", MarkdownProps(markdown=markdown), done.text)


def _links(results: object) -> list[Link]:
    links: list[Link] = []
    for entry in results if isinstance(results, list) else []:
        hits = entry.get("content") if isinstance(entry, Mapping) else None
        for hit in hits if isinstance(hits, list) else []:
            if isinstance(hit, Mapping):
                title, url = get_str(hit, "title"), get_str(hit, "url")
                if url:
                    links.append(Link(title=title or url, url=url))
    return links


def web_search(done: Finished) -> Mapped | None:
    """The pages found, as links; the text keeps the search model's commentary."""
    links = _links(done.details.get("results"))
    if not links:
        return None
    return _kind("links", LinksProps(links=links), done.text)
