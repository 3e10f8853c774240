"""The server: HTTP API, resumable SSE follow, AG-UI and the web page (Starlette).

``create_app`` and ``LogFactory`` are imported on first use, not with the
package: a child process the server spawns (a search process, a render
process) imports one small module of this package, and importing the package
must not pull in the whole app first (it was half a second of every search
process's start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolview.server.app import LogFactory, create_app

__all__ = ["LogFactory", "create_app"]


def __getattr__(name: str) -> object:
    """``create_app`` and ``LogFactory``, from ``server.app``, when first asked for."""
    if name in __all__:
        from toolview.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'toolview.server' has no attribute {name!r}")
