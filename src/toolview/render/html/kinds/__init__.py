"""The html surface's built-in kind renderers: each takes a ``KindBody``, returns safe markup.

One module per family of kinds, the same on every surface: ``shell``, ``code``
(file, diff), ``data`` (json, table, envelope), ``links``, ``image``, ``markdown``, ``todo``.
The ``blocks`` kind, whose content holds these, is the surface's ``content_blocks``.
Each is named, not imported: its module loads when its kind is first drawn (``Deferred``).
"""

from __future__ import annotations

from typing import Final

from toolview.render.registry import Deferred

__all__ = ["BUILTIN_RENDERERS"]

BUILTIN_RENDERERS: Final[dict[str, Deferred[str]]] = {
    "shell": Deferred(f"{__name__}.shell", "render_shell"),
    "file": Deferred(f"{__name__}.code", "render_file"),
    "diff": Deferred(f"{__name__}.code", "render_diff"),
    "json": Deferred(f"{__name__}.data", "render_json"),
    "table": Deferred(f"{__name__}.data", "render_table"),
    "links": Deferred(f"{__name__}.links", "render_links"),
    "image": Deferred(f"{__name__}.image", "render_image"),
    "markdown": Deferred(f"{__name__}.markdown", "render_markdown"),
    "envelope": Deferred(f"{__name__}.data", "render_envelope"),
    "todo": Deferred(f"{__name__}.todo", "render_todo"),
    "mcp-app": Deferred(f"{__name__}.mcp_app", "render_mcp_app"),
}
