"""Redaction, and its results shared by every follower of a process.

A server with 500 followers of one thread would otherwise redact (40+ regular
expressions) and re-encode each observation 500 times. Redaction is a pure
function of its input, so each ``Redactor`` keeps one ``RedactionMemo`` and
every follower using that redactor reads the same results from it: the memo
is keyed by the input's CONTENT (the text, or the observation's JSON
encoding), never by a seq or a thread, so it cannot serve a stale or another
thread's result, whatever the log does.

Concurrency: followers run on one asyncio thread and nothing awaits between
a lookup and its insert. The map also takes a lock per call, so a follower
in another thread (a CLI, a test) cannot corrupt it: two threads missing
the same key at once each compute it, and the second insert replaces the
first (equal values).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolWaiting,
    Usage,
    encode_observation,
)
from toolview.safety.opaque import crossing_id
from toolview.safety.output import live_output
from toolview.safety.partial import redact_partial
from toolview.wire.byte_lru import ByteLRU

__all__ = ["MEMO_BUDGET", "RedactionMemo", "Redactor", "redact_observation"]

MEMO_BUDGET: Final = 32 * 1024 * 1024


class RedactionMemo:
    """One redactor's results, bounded to ``budget`` bytes (see ``ByteLRU``).

    An entry's size is what its key and value objects take (``sys.getsizeof``;
    a value that IS its key — text with nothing to redact — counts once). At
    the default 32 MiB, live output of up to ~8 MiB is redacted once for
    every follower; a larger text is redacted by each follower on its own.
    """

    def __init__(self, redactor: Redactor, budget: int = MEMO_BUDGET) -> None:
        self.redactor = redactor
        self.cache: ByteLRU[tuple[str, str | bytes], object] = ByteLRU(budget)

    def text(self, text: str) -> str:
        """``redactor.text(text)``, computed once per distinct text."""
        return self._string("text", text, self.redactor.text)

    def partial(self, text: str) -> str:
        """``redactor.partial(text)`` (last token held back), computed once per distinct text."""
        return self._string("partial", text, self.redactor.partial)

    def live(self, text: str, *, complete: bool) -> str:
        """A call's output as it crosses live (``safety.output.live_output``), once per text."""
        kind = "live" if complete else "live-partial"
        redact_text = self.redactor.text
        return self._string(
            kind, text, lambda raw: live_output(raw, redact_text, complete=complete)
        )

    def _string(self, kind: str, text: str, compute: Callable[[str], str]) -> str:
        key = (kind, text)
        hit = self.cache.get(key)
        if isinstance(hit, str):
            return hit
        redacted = compute(text)
        self.cache.put(key, redacted, _size(text, redacted))
        return redacted

    def frame(self, observation: Observation) -> bytes:
        """The redacted observation's JSON, computed once per distinct observation.

        Keyed by the observation's own encoding: equal encodings are equal
        observations, so they redact to equal frames.
        """
        key = ("frame", encode_observation(observation))
        hit = self.cache.get(key)
        if isinstance(hit, bytes):
            return hit
        data = encode_observation(redact_observation(observation, self.redactor))
        self.cache.put(key, data, _size(key[1], data))
        return data

    def descriptor(self, descriptor: Descriptor) -> Descriptor:
        """The descriptor with its props redacted, computed once per distinct descriptor."""
        key = ("descriptor", _ENCODER.encode(descriptor))
        hit = self.cache.get(key)
        if isinstance(hit, Descriptor):
            return hit
        redacted = _redact_descriptor(descriptor, self.redactor)
        self.cache.put(key, redacted, 2 * sys.getsizeof(key[1]))  # about: a Struct's size
        return redacted


def _size(key: str | bytes, value: str | bytes) -> int:
    return sys.getsizeof(key) + (0 if value is key else sys.getsizeof(value))


@dataclass(frozen=True)
class Redactor:
    """The surfaces' secret redaction, for text and for JSON values.

    ``ids`` maps an id (call, run) to what crosses; by default the id itself,
    or its opaque stand-in (``safety.opaque``) when ``text`` would change it.
    ``memo`` shares its results between everyone using this redactor, within
    ``budget`` bytes (0 keeps nothing: every call computes); neither takes
    part in equality.
    """

    text: Callable[[str], str]
    json: Callable[[object], object]
    ids: Callable[[str], str] | None = field(default=None, kw_only=True, compare=False)
    budget: int = field(default=MEMO_BUDGET, kw_only=True, repr=False, compare=False)
    memo: RedactionMemo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Every redactor owns its memo: results of other functions never mix."""
        object.__setattr__(self, "memo", RedactionMemo(self, self.budget))

    def id(self, value: str) -> str:
        """What an id crosses as: itself, or an opaque id when redaction would change it.

        Opaque rather than redacted in place: ids pair calls, results and frames,
        and two ids differing only in their secret must stay two ids.
        """
        if self.ids is not None:
            return self.ids(value)
        return crossing_id(value, self.memo.text)

    def partial(self, text: str) -> str:
        """A running call's text, redacted, its unterminated last token held back."""
        return redact_partial(text, self.text)


_ENCODER = msgspec.json.Encoder()


def redact_observation(observation: Observation, redactor: Redactor) -> Observation:
    """The observation with every string field redacted, ids made opaque where needed.

    A partial tool-result (a running call) holds back its last token
    (``safety.partial``): what crosses never ends inside a secret. A
    sub-agent's mark (``parentCallId``) is a call id, so it crosses as the
    call's own id does (``Redactor.id``) and still pairs with it; ``at`` is a
    validated timestamp and crosses as it is.
    """
    parent = observation.parent_call_id
    if isinstance(parent, str):
        observation = msgspec.structs.replace(observation, parent_call_id=redactor.id(parent))
    return _redact_fields(observation, redactor)


def _redact_fields(observation: Observation, redactor: Redactor) -> Observation:
    replace = msgspec.structs.replace
    short = redactor.memo.text  # names, kinds, guards and ids repeat: each is redacted once
    if isinstance(observation, RunStarted):  # its session facts are the user's paths and words
        facts = {
            name: redactor.text(value)
            for name in ("cwd", "branch", "title")
            if isinstance(value := getattr(observation, name), str)
        }
        return replace(observation, run_id=redactor.id(observation.run_id), **facts)
    if isinstance(observation, RunEnded):
        reason = observation.reason
        safe = redactor.text(reason) if isinstance(reason, str) else reason
        return replace(observation, run_id=redactor.id(observation.run_id), reason=safe)
    if isinstance(observation, Message):
        return replace(observation, text=redactor.text(observation.text))
    if isinstance(observation, Usage):
        run = observation.run_id
        safe_run = redactor.id(run) if isinstance(run, str) else run
        return replace(observation, model=short(observation.model), run_id=safe_run)
    if isinstance(observation, ToolWaiting | ToolDecision):
        return _redact_asking(observation, redactor)
    call_id, name = redactor.id(observation.tool_call_id), short(observation.tool_name)
    if isinstance(observation, ToolCall):
        args = redactor.json(observation.args)
        safe_args = args if isinstance(args, dict) else {"args": args}
        return replace(observation, tool_call_id=call_id, tool_name=name, args=safe_args)
    if isinstance(observation, ToolRefused):
        guard = observation.guard
        return replace(
            observation,
            tool_call_id=call_id,
            tool_name=name,
            reason=redactor.text(observation.reason),
            guard=short(guard) if isinstance(guard, str) else guard,
        )
    descriptor = observation.descriptor
    if not isinstance(descriptor, msgspec.UnsetType):
        descriptor = _redact_descriptor(descriptor, redactor)
    text = observation.text
    text = redactor.text(text) if observation.complete else redactor.partial(text)
    stored = observation.stored  # the file's path is the writer's words too
    if not isinstance(stored, msgspec.UnsetType):
        stored = replace(stored, path=redactor.text(stored.path) or "[redacted]")
    return replace(
        observation,
        tool_call_id=call_id,
        tool_name=name,
        text=text,
        descriptor=descriptor,
        stored=stored,
    )


def _redact_asking(
    observation: ToolWaiting | ToolDecision, redactor: Redactor
) -> ToolWaiting | ToolDecision:
    """What a person was asked, or their receipt: every string redacted, the id made opaque."""
    replace = msgspec.structs.replace
    call_id = redactor.id(observation.tool_call_id)

    def text(value: str | msgspec.UnsetType) -> str | msgspec.UnsetType:
        return redactor.text(value) if isinstance(value, str) else value

    def obj(value: dict[str, Any] | msgspec.UnsetType) -> dict[str, Any] | msgspec.UnsetType:
        if isinstance(value, msgspec.UnsetType):
            return value
        safe = redactor.json(value)
        return safe if isinstance(safe, dict) else {"value": safe}

    if isinstance(observation, ToolWaiting):
        return replace(
            observation,
            tool_call_id=call_id,
            tool_name=redactor.memo.text(observation.tool_name),
            args=obj(observation.args),
            question=text(observation.question),
            schema=obj(observation.schema),
        )
    return replace(
        observation,
        tool_call_id=call_id,
        by=redactor.text(observation.by),
        message=text(observation.message),
        answer=obj(observation.answer),
        via=text(observation.via),
        key=text(observation.key),
    )


def _redact_descriptor(descriptor: Descriptor, redactor: Redactor) -> Descriptor:
    """Kind and props redacted (a kind is as untrusted as any other string).

    But an image's base64 ``data``: it is not text, and a pattern matched
    inside it would only break the image, so it is set aside and put back.
    """
    data = descriptor.props.get("data") if descriptor.kind == "image" else None
    kept = {"data": data} if isinstance(data, str) else {}
    props = {k: v for k, v in descriptor.props.items() if k != "data"} if kept else descriptor.props
    redacted = redactor.json(props)
    props = {**redacted, **kept} if isinstance(redacted, dict) else {}
    return msgspec.structs.replace(
        descriptor, kind=redactor.memo.text(descriptor.kind), props=props
    )
