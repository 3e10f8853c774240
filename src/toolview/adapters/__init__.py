"""Framework adapters: one module per framework, each reached from a ``Recorder``.

``rec.pydantic_ai()``, ``rec.openai_agents(agent)``, ``rec.langchain()``,
``rec.smolagents(events)`` and ``rec.mcp(session)`` each import
``toolview.adapters.<name>`` on first use and call its ``attach(recorder, …)``.
Why lazily: a user of one framework must not need (or pay to import) the
others, and nothing in toolview imports an adapter. ``require`` is how an
adapter imports its framework: a missing one is an ``ImportError`` that says
which extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` (a framework), or raise ``ImportError`` naming ``toolview[extra]``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module} is not installed: pip install 'toolview[{extra}]'", name=module
        ) from exc
