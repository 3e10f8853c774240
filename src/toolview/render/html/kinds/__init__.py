"""The html surface's built-in kind renderers: each takes a ``KindBody``, returns safe markup.

One module per family of kinds, the same on every surface: ``shell``, ``code``
(file, diff), ``data`` (json, table, envelope), ``links``, ``image``, ``markdown``, ``todo``.
The ``blocks`` kind, whose content holds these, is the surface's ``content_blocks``.
"""

from __future__ import annotations

from typing import Final

from toolview.render.html.kinds.code import render_diff, render_file
from toolview.render.html.kinds.data import render_envelope, render_json, render_table
from toolview.render.html.kinds.image import render_image
from toolview.render.html.kinds.links import render_links
from toolview.render.html.kinds.markdown import render_markdown
from toolview.render.html.kinds.shell import render_shell
from toolview.render.html.kinds.todo import render_todo
from toolview.render.registry import Renderer

__all__ = ["BUILTIN_RENDERERS"]

BUILTIN_RENDERERS: Final[dict[str, Renderer[str]]] = {
    "shell": render_shell,
    "file": render_file,
    "diff": render_diff,
    "json": render_json,
    "table": render_table,
    "links": render_links,
    "image": render_image,
    "markdown": render_markdown,
    "envelope": render_envelope,
    "todo": render_todo,
}
