"""The one-line way from a recorder to each framework: ``rec.pydantic_ai()`` and friends.

Why by name, lazily: a user of one framework must not need the others, and
nothing in toolview imports an adapter (an import-linter contract). Each
method imports ``toolview.adapters.<name>`` on first use and calls its
``attach(recorder, …)``; a framework that is not installed says which extra
to install (``toolview.adapters.require``).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["AdapterMethods"]


class AdapterMethods:
    """Mixed into ``Recorder``: one method per framework adapter."""

    def _adapter(self, name: str, *args: object) -> Any:
        module = importlib.import_module(f"toolview.adapters.{name}")
        return module.attach(self, *args)

    def pydantic_ai(self) -> Any:
        """A pydantic-ai capability that records every tool call (``toolview[pydantic-ai]``)."""
        return self._adapter("pydantic_ai")

    def openai_agents(self, agent: object) -> Any:
        """Run hooks for an OpenAI Agents SDK agent (``toolview[openai-agents]``)."""
        return self._adapter("openai_agents", agent)

    def langchain(self) -> Any:
        """A LangChain / LangGraph callback handler (``toolview[langchain]``)."""
        return self._adapter("langchain")

    def smolagents(self, events: object) -> Any:
        """``agent.run(task, stream=True)``'s events, recorded as they pass by.

        Needs ``toolview[smolagents]``.
        """
        return self._adapter("smolagents", events)

    def mcp(self, session: object) -> Any:
        """An MCP ``ClientSession`` whose every ``call_tool`` is recorded (returns it)."""
        return self._adapter("mcp", session)
