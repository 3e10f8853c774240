"""Rich renderers for the built-in kinds; untrusted text only ever as ``Text``.

One module per family of kinds, the same on every surface: ``shell``, ``code``
(file, diff), ``data`` (json, table, envelope), ``links``, ``image``, ``markdown``, ``todo``.
The ``blocks`` kind, whose content holds these, is the surface's ``content_blocks``.
"""

from __future__ import annotations

from typing import Final

from rich.console import RenderableType

from toolview.render.registry import Renderer
from toolview.render.terminal.kinds.code import diff, file
from toolview.render.terminal.kinds.data import envelope, json_value, table
from toolview.render.terminal.kinds.image import image
from toolview.render.terminal.kinds.links import links
from toolview.render.terminal.kinds.markdown import markdown
from toolview.render.terminal.kinds.shell import shell
from toolview.render.terminal.kinds.todo import todo

__all__ = ["BUILTIN_RENDERERS"]

BUILTIN_RENDERERS: Final[dict[str, Renderer[RenderableType]]] = {
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
