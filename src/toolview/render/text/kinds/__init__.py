"""Plain-text renderers for the built-in kinds: each returns lines, no escapes at all.

One module per family of kinds, the same on every surface: ``shell``, ``code``
(file, diff), ``data`` (json, table, envelope), ``links``, ``image``, ``markdown``, ``todo``.
The ``blocks`` kind, whose content holds these, is the surface's ``content_blocks``.
Each is named, not imported: its module loads when its kind is first drawn (``Deferred``).
"""

from __future__ import annotations

from typing import Final

from toolview.render.registry import Deferred, deferred_kinds

__all__ = ["BUILTIN_RENDERERS"]

BUILTIN_RENDERERS: Final[dict[str, Deferred[list[str]]]] = deferred_kinds(__name__)
