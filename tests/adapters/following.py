"""A follower of a published thread, as a person watching the live page would be."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from agent_tools import FIRST_LINE

from toolview.contract import RunEnded, ToolResult, encode_observation
from toolview.remote.reader import ThreadNotFound, ThreadReader

__all__ = ["follow_until_ended"]


def follow_until_ended(url: str, gate: Path, seen: list[dict[str, Any]]) -> None:
    """Follow ``url`` live into ``seen`` until the run ends; the shell's first line opens ``gate``.

    The thread appears with the run's first observation: until then the server
    has no such thread, so the follower asks again (for at most two minutes).
    """
    deadline = time.monotonic() + 120
    while True:
        try:
            with ThreadReader(url, token="") as reader:
                for item in reader.follow():
                    observation = item.observation
                    seen.append(json.loads(encode_observation(observation)))
                    if _shows_first_line(observation):
                        gate.touch()
                    if isinstance(observation, RunEnded):
                        return
        except ThreadNotFound:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _shows_first_line(observation: object) -> bool:
    return (
        isinstance(observation, ToolResult)
        and not observation.complete
        and FIRST_LINE in observation.text
    )
