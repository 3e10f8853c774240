"""Where a sub-agent's observations go: the child thread under the call that ran it.

An observation marked ``parentCallId: P`` belongs to the sub-agent that call
``P`` ran; the root ``Thread`` keeps one ``Nesting`` that finds, for a call
id at any depth, the thread holding it and the root-level call above it, so
marks of marks nest (a sub-agent's sub-agent) and a call id — unique across
the stream — pairs its result wherever the call landed, marked or not.

A mark that names a call the thread never saw is kept, never dropped: the
root gets a placeholder call under that id (``CallEntry.orphan``) and the
child thread goes under it; if the call turns up later it fills the
placeholder in. A mark naming a call a stream already drew and released
gets a fresh placeholder too (``orphan="late"``), so its sub-agent still shows.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["Nesting"]

T = TypeVar("T")  # the thread type (a ``Thread``: this module does not import it)


@dataclass
class Nesting(Generic[T]):
    """A root thread's index of the calls its children hold, at every depth."""

    # nested call id -> (the thread holding it, the root-level call it is under)
    held: dict[str, tuple[T, str]] = field(default_factory=dict)

    def holder(self, root: T, own: Container[str], call_id: str) -> tuple[T, str] | None:
        """The thread holding ``call_id`` and the root-level call above it (itself at the root,
        whose own calls are ``own``)."""
        if call_id in own:
            return root, call_id
        return self.held.get(call_id)

    def hold(self, thread: T, call_id: str, top: str) -> None:
        """Index ``call_id``, a call ``thread`` (a child of the root, at any depth) now holds."""
        self.held.setdefault(call_id, (thread, top))

    def forget(self, call_ids: Iterable[str]) -> None:
        """Drop these calls (a released call's sub-agent's, at every depth) from the index."""
        for call_id in call_ids:
            self.held.pop(call_id, None)
