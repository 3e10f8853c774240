"""Rich renderers for the built-in kinds; untrusted text only ever as ``Text``.

One module per family of kinds, the same on every surface: ``shell``, ``code``
(file, diff), ``data`` (json, table, envelope), ``links``, ``image``, ``markdown``, ``todo``.
The ``blocks`` kind, whose content holds these, is the surface's ``content_blocks``.
Each is named, not imported: its module loads when its kind is first drawn (``Deferred``).
"""

from __future__ import annotations

from typing import Final

from rich.console import RenderableType

from toolview.render.registry import Deferred

__all__ = ["BUILTIN_RENDERERS"]

BUILTIN_RENDERERS: Final[dict[str, Deferred[RenderableType]]] = {
    "shell": Deferred(f"{__name__}.shell", "shell"),
    "file": Deferred(f"{__name__}.code", "file"),
    "diff": Deferred(f"{__name__}.code", "diff"),
    "json": Deferred(f"{__name__}.data", "json_value"),
    "table": Deferred(f"{__name__}.data", "table"),
    "links": Deferred(f"{__name__}.links", "links"),
    "image": Deferred(f"{__name__}.image", "image"),
    "markdown": Deferred(f"{__name__}.markdown", "markdown"),
    "envelope": Deferred(f"{__name__}.data", "envelope"),
    "todo": Deferred(f"{__name__}.todo", "todo"),
}
