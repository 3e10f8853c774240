"""``toolview show --json``: the observations as JSON Lines, redacted, instead of a render.

Why: a session read from Claude Code or Codex becomes toolview's own
observations, for ``toolview check``, ``serve --load`` or a script — and
nothing toolview writes carries a secret, so each observation is redacted
exactly as the server redacts what it sends (``wire.memo.redact_observation``:
every string field, ids made opaque where a secret would change them).
A sub-agent's observations come with the rest, marked with ``parentCallId``;
that mark is an id too, so it crosses as its call's id does.

Only observations go to stdout, one per line, so the output always passes
``toolview check``. Each line is written for a terminal (``safety.json_escape``):
a C1 control or a bidi override inside a string is a ``\\uXXXX`` escape, the
same value to a JSON reader, nothing a terminal obeys. What could not be
read (a broken line, a host's note) is said on stderr, one line each, never
dropped silently.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import msgspec

from toolview.cli.jsonl import BadDescriptor, Item
from toolview.contract import Observation, encode_observation
from toolview.safety import clean_text, redact, redact_json
from toolview.safety.json_escape import escape_json
from toolview.wire.memo import Redactor, redact_observation

__all__ = ["redacted", "write_json"]

_REDACTOR = Redactor(text=redact, json=redact_json)


def redacted(observation: Observation) -> Observation:
    """``observation`` as toolview lets it out: redacted, its ids (the sub-agent mark too)
    opaque where a secret would change them."""
    safe = redact_observation(observation, _REDACTOR)
    parent = safe.parent_call_id
    if isinstance(parent, str):
        safe = msgspec.structs.replace(safe, parent_call_id=_REDACTOR.id(parent))
    return safe


def write_json(items: Iterable[Item]) -> int:
    """Write each observation of ``items`` as one JSON line; notes to stderr. Exit 0."""
    out = sys.stdout.buffer
    for item in items:
        if isinstance(item, BadDescriptor):  # its text is kept; the broken descriptor is not
            _say(f"{item.result.tool_call_id}: descriptor dropped ({item.reason})")
            item = item.result
        if not isinstance(item, Observation):
            _say(str(item))
            continue
        line = escape_json(encode_observation(redacted(item)).decode("utf-8"))
        out.write(line.encode("utf-8") + b"\n")
    out.flush()
    return 0


def _say(text: str) -> None:
    """One note on stderr, cleaned and redacted like everything else toolview writes."""
    sys.stdout.buffer.flush()  # the note lands after the lines before it
    print(f"toolview show: {clean_text(' '.join(text.split()))[:500]}", file=sys.stderr)
