"""The guard protocol: a policy that sees a tool call before it runs.

Why a protocol and two tiny decision types: whoever makes calls (the
``toolview run`` command, an MCP call, the server) asks ``check(call)`` and
gets ``Allow`` or ``Refuse``; a refusal becomes a ``tool-refused`` observation,
never an error of the tool, because the tool never ran.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeAlias, runtime_checkable

from toolview.contract import ToolCall, ToolRefused

__all__ = ["ALLOW", "AllGuards", "Allow", "Decision", "Guard", "Refuse", "refusal_observation"]


@dataclass(frozen=True)
class Allow:
    """The call may run."""


@dataclass(frozen=True)
class Refuse:
    """The call must not run: why, and which guard said so."""

    reason: str
    guard: str


Decision: TypeAlias = Allow | Refuse
ALLOW = Allow()


@runtime_checkable
class Guard(Protocol):
    """Anything with a ``name`` and ``check(call) -> Allow | Refuse``."""

    @property
    def name(self) -> str:
        """Shown on the receipt of a call this guard refused."""
        ...

    def check(self, call: ToolCall) -> Decision:
        """Decide whether ``call`` may run; must not run it."""
        ...


class AllGuards:
    """Several guards as one: asked in order, the first refusal wins."""

    def __init__(self, guards: Iterable[Guard], name: str = "all") -> None:
        self.guards = tuple(guards)
        self._name = name

    @property
    def name(self) -> str:
        """The composite's own name (a refusal names the guard that refused)."""
        return self._name

    def check(self, call: ToolCall) -> Decision:
        """Allow only when every guard allows."""
        for guard in self.guards:
            decision = guard.check(call)
            if isinstance(decision, Refuse):
                return decision
        return ALLOW


def refusal_observation(call: ToolCall, refusal: Refuse) -> ToolRefused:
    """The ``tool-refused`` observation for a call a guard refused."""
    return ToolRefused(
        tool_call_id=call.tool_call_id,
        tool_name=call.tool_name,
        reason=refusal.reason,
        guard=refusal.guard,
    )
