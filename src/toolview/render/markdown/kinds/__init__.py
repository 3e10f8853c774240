"""Markdown renderers for the built-in kinds: escaped inline text, fenced blocks.

One module per family of kinds, the same on every surface: ``shell``, ``code``
(file, diff), ``data`` (json, table, envelope), ``links``, ``image``, ``markdown``, ``todo``.
The ``blocks`` kind, whose content holds these, is the surface's ``content_blocks``.
"""

from __future__ import annotations

from typing import Final

from toolview.render.markdown.kinds.code import diff, file
from toolview.render.markdown.kinds.data import envelope, json_value, table
from toolview.render.markdown.kinds.image import image
from toolview.render.markdown.kinds.links import links
from toolview.render.markdown.kinds.markdown import markdown
from toolview.render.markdown.kinds.shell import shell
from toolview.render.markdown.kinds.todo import todo
from toolview.render.registry import Renderer

__all__ = ["BUILTIN_RENDERERS"]

BUILTIN_RENDERERS: Final[dict[str, Renderer[list[str]]]] = {
    "shell": shell,
    "file": file,
    "diff": diff,
    "json": json_value,
    "table": table,
    "links": links,
    "image": image,
    "markdown": markdown,
    "envelope": envelope,
    "todo": todo,
}
