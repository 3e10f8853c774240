"""A posted batch of observations: a JSON array or JSON Lines, all or nothing.

Every observation is validated with the contract before any is stored; the
first bad one rejects the whole request with a message naming where it is
(line for JSON Lines, item for an array) and the JSON path inside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

import msgspec
from starlette.requests import Request

from toolview.contract import Observation, ObservationError, decode_observation
from toolview.server.ingest.budget import Hold
from toolview.wire.batch_limit import MAX_BATCH
from toolview.wire.idempotency import is_valid_key

__all__ = [
    "BadBatch",
    "BodyTooLarge",
    "TooManyObservations",
    "idempotency_key",
    "parse_observations",
    "read_body",
    "routable",
]

# A URL path normalises these away: ``/calls/../html`` is the thread's ``/html``.
_DOT_SEGMENTS: Final = frozenset({".", ".."})
# msgspec's message for a bad array item: "<reason> - at `$[<index>]<path>`"
_ITEM_ERROR: Final = re.compile(
    r"(?P<reason>.*) - at `\$\[(?P<index>[0-9]+)\](?P<path>[^`]*)`", re.S
)


class _Item(msgspec.Struct, gc=False):
    """What every observation has: the first look at an array's items.

    Why: decoding an array as ``msgspec.Raw`` items makes one object per item
    before any is checked, ~32 bytes an item of ``0,`` (16 MiB of body: 540 MB).
    Items without a ``kind`` fail here at the first; those with one cost ~32
    bytes per 12 of body, and are counted against the cap before the rest.
    """

    kind: str


class BadBatch(ValueError):
    """The batch breaks the contract; the message says where and how."""


class BodyTooLarge(ValueError):
    """The body is over the server's size limit."""


class TooManyObservations(BodyTooLarge):
    """The batch holds more observations than its cap (``wire.batch_limit.MAX_BATCH``): a 413.

    Why: a batch is validated and stored in one piece, so its count bounds
    what one request costs the server, whatever the body limit.
    """

    def __init__(self, cap: int) -> None:
        super().__init__(f"a batch holds at most {cap} observations: send several")


async def read_body(request: Request, limit: int, hold: Hold | None = None) -> bytes:
    """The request body, refusing (without buffering) anything over ``limit`` bytes.

    With ``hold``, every chunk is taken from the server's body budget as it
    arrives (``server.ingest.budget``; ``ServerBusy`` when it has no room).
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"body of {declared} bytes is over the limit of {limit}")
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise BodyTooLarge(f"body is over the limit of {limit} bytes")
        if hold is not None:
            hold.take(len(chunk))
        chunks.append(chunk)
    return b"".join(chunks)


def idempotency_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key``, or ``None``; ``BadBatch`` for a malformed one.

    Checked before the body is read: a key the log could not keep exactly (too
    long, spaces, control or non-ASCII bytes) is refused, never trimmed.
    """
    keys = request.headers.getlist("idempotency-key")
    if not keys:
        return None
    if len(keys) > 1:
        raise BadBatch("send one Idempotency-Key header, not several")
    if not is_valid_key(keys[0]):
        raise BadBatch("Idempotency-Key must be 1-128 visible ASCII characters (! to ~)")
    return keys[0]


def parse_observations(body: bytes, most: int | None = MAX_BATCH) -> list[Observation]:
    """Every observation in ``body``, or ``BadBatch`` for the first that fails.

    More than ``most`` (``None``: no cap, for a file loaded at start) raises
    ``TooManyObservations`` before the rest is validated.
    """
    cap = most if most is not None else len(body) + 1  # never reached
    is_array = body.lstrip()[:1] == b"["
    observations = _parse_array(body, cap) if is_array else _parse_lines(body, cap)
    if not observations:
        raise BadBatch("no observations in the body")
    return observations


def routable(observation: Observation) -> Observation:
    """``observation`` if its ``toolCallId`` can name it in a URL; ``ObservationError`` if not.

    The web page fetches a call by its id; ``.`` and ``..`` would be dropped by
    the browser's path normalisation (and fetch another resource), so they are
    refused here, at ingest, rather than worked around by every reader.
    """
    call_id = getattr(observation, "tool_call_id", None)
    if call_id in _DOT_SEGMENTS:
        raise ObservationError(f"a tool call id may not be {call_id!r}", "$.toolCallId")
    return observation


def _parse_array(body: bytes, cap: int) -> list[Observation]:
    try:
        if len(msgspec.json.decode(body, type=list[_Item])) > cap:
            raise TooManyObservations(cap)
        items = msgspec.json.decode(body, type=list[msgspec.Raw])
    except msgspec.ValidationError as exc:
        raise _item_error(str(exc)) from None
    except msgspec.DecodeError as exc:
        raise BadBatch(f"malformed JSON array: {exc}") from None
    observations = []
    for index, raw in enumerate(items):
        try:
            observations.append(routable(decode_observation(bytes(raw))))
        except ObservationError as exc:
            path = "$[" + str(index) + "]" + exc.path[1:]
            raise BadBatch(f"item {index + 1}: {path}: {exc.reason}") from None
    return observations


def _item_error(message: str) -> BadBatch:
    """msgspec's ``… - at `$[i]…``` said as the contract's errors are: item, path, reason."""
    match = _ITEM_ERROR.fullmatch(message)
    if match is None:
        return BadBatch(f"not a JSON array of observations: {message}")
    index = int(match["index"])
    return BadBatch(f"item {index + 1}: $[{index}]{match['path']}: {match['reason']}")


def _lines(body: bytes) -> Iterator[bytes]:
    """``body.split(b"\\n")``, one line at a time.

    Why: a list of every line is one object per line before the first is
    checked (16 MiB of ``ab`` lines: 245 MB).
    """
    start = 0
    while start <= len(body):
        end = body.find(b"\n", start)
        end = len(body) if end < 0 else end
        yield body[start:end]
        start = end + 1


def _parse_lines(body: bytes, cap: int) -> list[Observation]:
    observations: list[Observation] = []
    for number, line in enumerate(_lines(body), start=1):
        if not line.strip():
            continue
        if len(observations) == cap:
            raise TooManyObservations(cap)
        try:
            observations.append(routable(decode_observation(line)))
        except ObservationError as exc:
            raise BadBatch(f"line {number}: {exc.path}: {exc.reason}") from None
    return observations
