"""Where a Task/Agent call's sub-agent session is written.

Claude Code 2.1 writes each sub-agent to ``<session>/subagents/agent-<id>.jsonl``
with a sibling ``agent-<id>.meta.json`` whose ``toolUseId`` is the call that ran
it; the call's ``toolUseResult.agentId`` links the other way. Older versions
wrote ``agent-<id>.jsonl`` beside the session. Both links are tried: the agent
id when the result gives it, else the call id the meta files name (a
sub-agent's own results carry no ``toolUseResult``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import msgspec

from toolview.hosts.claude_code.stored import read_regular

__all__ = ["SubagentFiles"]

_META_LIMIT: Final = 64 * 1024
_META_FILES: Final = 10_000


class _Meta(msgspec.Struct, rename="camel"):
    tool_use_id: str | None = None


_META: Final = msgspec.json.Decoder(_Meta)


def _safe_id(agent: str) -> bool:
    return 0 < len(agent) <= 200 and all(char.isalnum() or char in "-_" for char in agent)


class SubagentFiles:
    """Finds a sub-agent's file by its agent id or by the id of the call that ran it."""

    def __init__(self, session_dir: Path) -> None:
        self.folder = session_dir / "subagents"
        self._by_call: dict[str, Path] | None = None

    def find(self, agent: str, call_id: str, beside: Path) -> Path | None:
        """The sub-agent file of ``call_id`` (``agent``: its id, ``""`` if unknown)."""
        if _safe_id(agent):
            for candidate in (
                self.folder / f"agent-{agent}.jsonl",
                beside / f"agent-{agent}.jsonl",
            ):
                if candidate.is_file():
                    return candidate
        return self._index().get(call_id)

    def _index(self) -> dict[str, Path]:
        """``toolUseId`` → file, from the meta files (read once, each bounded)."""
        if self._by_call is None:
            self._by_call = {}
            metas = sorted(self.folder.rglob("agent-*.meta.json")) if self.folder.is_dir() else []
            for meta in metas[:_META_FILES]:
                link = self._read(meta)
                session = meta.with_name(meta.name.removesuffix(".meta.json") + ".jsonl")
                if link and session.is_file():
                    self._by_call.setdefault(link, session)
        return self._by_call

    @staticmethod
    def _read(meta: Path) -> str | None:
        try:
            return _META.decode(read_regular(meta, _META_LIMIT)).tool_use_id
        except (OSError, msgspec.DecodeError, UnicodeError, RecursionError, ValueError):
            return None
