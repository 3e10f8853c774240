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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the thread module imports this one
    from toolview.contract.thread import Thread

__all__ = ["Nesting"]


@dataclass
class Nesting:
    """A root thread's index of the calls held by its child threads, at every depth."""

    # nested call id -> (the thread holding it, the root-level call it is under)
    held: dict[str, tuple[Thread, str]] = field(default_factory=dict)

    def holder(self, root: Thread, call_id: str) -> tuple[Thread, str] | None:
        """The thread holding ``call_id`` and the root-level call above it (itself at the root)."""
        if call_id in root._calls:
            return root, call_id
        return self.held.get(call_id)

    def top(self, root: Thread, call_id: str) -> str | None:
        """The root-level call ``call_id`` is (or is under), or ``None`` for a call not held."""
        found = self.holder(root, call_id)
        return None if found is None else found[1]

    def hold(self, thread: Thread, call_id: str, top: str) -> None:
        """Index ``call_id``, a call ``thread`` (a child of the root, at any depth) now holds."""
        if call_id in thread._calls:
            self.held.setdefault(call_id, (thread, top))

    def forget(self, thread: Thread) -> dict[str, str]:
        """Drop ``thread``'s calls and its children's from the index; their ids and tool names."""
        gone: dict[str, str] = {}
        for call_id, entry in thread._calls.items():
            self.held.pop(call_id, None)
            gone[call_id] = entry.tool_name
        for child in thread._children.values():
            gone.update(self.forget(child))
        return gone
