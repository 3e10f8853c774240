"""The server: HTTP API, resumable SSE follow, AG-UI and the web page (Starlette)."""

from toolview.server.app import LogFactory, create_app

__all__ = ["LogFactory", "create_app"]
