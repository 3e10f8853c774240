"""Idempotency keys: a batch retried after its answer was lost is stored once.

Why: a POST can commit and then lose its answer (a timeout, a reset, a server
killed right after the commit). A producer cannot tell that from "not stored",
so it must retry — and without a key the retry stores the batch twice.

The rule both ends keep:

* the producer gives each batch a fresh random key and resends a failed batch
  *byte-identical with the same key*; anything produced meanwhile (newer
  partials included) waits for the next batch, under a new key;
* the log stores the key with the batch's seq range and a digest of the batch
  *in the same atomic write* as the observations, so "stored" and "key known"
  are one fact;
* a key seen before on the thread returns the original seqs and stores
  nothing; the same key with a different batch is a ``KeyConflict``;
* keys are per thread, and a thread remembers its last ``KEEP_KEYS`` keyed
  batches (older keys are forgotten, oldest first — a retry comes seconds
  later, not ten thousand batches later).

Several keyed batches may go in one atomic write (``append_each``: an OTLP
export, each span its own key): one transaction instead of one per span (512
spans cost 5.2× the same observations posted as one batch), while each batch
keeps its own key — a retried export stores nothing, a partly new one stores
only its new spans. ``plan_keyed`` decides which batches are new, for both logs.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

import msgspec

from toolview.contract import Observation, encode_observation

__all__ = [
    "KEEP_KEYS",
    "Appended",
    "KeyConflict",
    "Keyed",
    "Outcome",
    "Plan",
    "Remembered",
    "batch_digest",
    "is_valid_key",
    "new_key",
    "plan_keyed",
]

KEEP_KEYS: Final = 10_000
_KEY: Final = re.compile(r"[\x21-\x7e]{1,128}")


class KeyConflict(ValueError):
    """The key was already used on this thread for a different batch; nothing was stored."""


class Appended(msgspec.Struct, frozen=True):
    """What an append under a key did: the batch's seqs, and whether it was a replay."""

    seqs: list[int]
    replayed: bool = False


class Remembered(msgspec.Struct, frozen=True, array_like=True):
    """What a log keeps per key: the batch's seq range and its digest."""

    first: int
    last: int
    digest: bytes

    def replay(self, key: str, digest: bytes) -> Appended:
        """The original seqs for the same batch; ``KeyConflict`` for another one."""
        if digest != self.digest:
            raise KeyConflict(
                f"Idempotency-Key {key!r} was already used on this thread for a different batch"
            )
        return Appended(list(range(self.first, self.last + 1)), replayed=True)

    def encode(self) -> bytes:
        """The compact stored form (Redis keeps it as a hash value)."""
        return msgspec.msgpack.encode(self)

    @classmethod
    def decode(cls, raw: bytes) -> Remembered:
        """Back from ``encode``."""
        return msgspec.msgpack.decode(raw, type=cls)


Keyed: TypeAlias = tuple[str, Sequence[Observation]]  # (idempotency key, its batch)
Outcome: TypeAlias = Appended | KeyConflict  # per keyed batch: stored, replayed or refused


@dataclass(frozen=True)
class Plan:
    """What one write of several keyed batches does (``plan_keyed``).

    ``outcomes``: one per batch, in order; ``observations``: the new batches'
    observations, in order, to number after the thread's last seq;
    ``remember``: the keys to store with them, each with its own seq range.
    """

    outcomes: list[Outcome]
    observations: list[Observation]
    remember: list[tuple[str, Remembered]]


def plan_keyed(batches: Sequence[Keyed], known: Mapping[str, Remembered], last: int) -> Plan:
    """Which of ``batches`` are new, given the keys the thread ``known``s and its ``last`` seq.

    A known key replays (or is a ``KeyConflict``, kept as the batch's outcome
    so the others still go in); a key repeated within ``batches`` is a replay
    of its first batch. An empty batch is stored as nothing and not remembered.
    """
    seen = dict(known)
    outcomes: list[Outcome] = []
    new: list[Observation] = []
    remember: list[tuple[str, Remembered]] = []
    for key, observations in batches:
        digest = batch_digest(observations)
        prior = seen.get(key)
        if prior is not None:
            try:
                outcomes.append(prior.replay(key, digest))
            except KeyConflict as conflict:
                outcomes.append(conflict)
            continue
        first = last + len(new) + 1
        new.extend(observations)
        outcomes.append(Appended(list(range(first, first + len(observations)))))
        if observations:
            seen[key] = Remembered(first, first + len(observations) - 1, digest)
            remember.append((key, seen[key]))
    return Plan(outcomes, new, remember)


def new_key() -> str:
    """A fresh random key (128 bits, hex): unguessable and never reused by accident."""
    return uuid.uuid4().hex


def is_valid_key(key: str) -> bool:
    """1-128 visible ASCII characters (``!`` to ``~``), the header's allowed form."""
    return _KEY.fullmatch(key) is not None


def batch_digest(observations: Sequence[Observation]) -> bytes:
    """SHA-256 of the batch's canonical encoding.

    Canonical, not the raw body: the same observations sent as a JSON array or
    as JSON Lines, with other spacing, are the same batch.
    """
    digest = hashlib.sha256()
    for observation in observations:
        digest.update(encode_observation(observation))
        digest.update(b"\n")
    return digest.digest()
