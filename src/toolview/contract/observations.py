"""Observations: what crosses the wire, a union tagged by ``kind``.

``tool-result.text`` is ACCUMULATED, not a delta: each partial carries all
output so far (or the producer's current window of it), so a consumer
*replaces* its display. A consumer that appends duplicates every chunk.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, TypeGuard

import msgspec

from toolview.contract.checks import UNSET, check_fields, enc_hook, marks_fine
from toolview.contract.descriptor import Descriptor
from toolview.contract.stored_output import StoredOutput
from toolview.contract.types import (
    MAX_DOLLARS,
    TIMESTAMP_PATTERN,
    Dollars,
    JSONObject,
    NonEmptyStr,
    NonNegativeInt,
    Timestamp,
)

__all__ = [
    "CALL_OBSERVATIONS",
    "DECISIONS",
    "Decision",
    "Message",
    "Observation",
    "ObservationError",
    "RunEnded",
    "RunOutcome",
    "RunStarted",
    "ToolCall",
    "ToolDecision",
    "ToolRefused",
    "ToolResult",
    "ToolWaiting",
    "Usage",
    "decode_observation",
    "encode_observation",
    "is_partial",
]

RunOutcome: TypeAlias = Literal["completed", "aborted", "error"]
MessageRole: TypeAlias = Literal["user", "assistant", "thinking"]
_OUTCOMES: tuple[str, ...] = ("completed", "aborted", "error")
_ROLES: tuple[str, ...] = ("user", "assistant", "thinking")
Decision: TypeAlias = Literal["allow", "deny", "answer"]
DECISIONS: tuple[str, ...] = ("allow", "deny", "answer")


class _Observation(msgspec.Struct, frozen=True, tag_field="kind", rename="camel", kw_only=True):
    """Base: every observation is tagged by ``kind`` and camelCase on the wire.

    Two optional fields any observation may carry (keyword-only, absent when
    unknown — a host fills them where it knows them, nothing invents them):
    ``at``, when it happened; ``parent_call_id`` (``parentCallId``), the call
    whose sub-agent produced it — absent for the thread's own observations, so
    a sub-agent's calls form a child thread under that call.
    """

    at: Timestamp | msgspec.UnsetType = msgspec.UNSET
    parent_call_id: NonEmptyStr | msgspec.UnsetType = msgspec.UNSET


class ToolCall(_Observation, frozen=True, tag="tool-call"):
    """A tool was called with these arguments."""

    tool_call_id: NonEmptyStr
    tool_name: NonEmptyStr
    args: JSONObject

    def __post_init__(self) -> None:
        if not (
            type(self.tool_call_id) is str
            and self.tool_call_id
            and type(self.tool_name) is str
            and self.tool_name
            and type(self.args) is dict
            and marks_fine(self.at, self.parent_call_id)
        ):
            check_fields(self, non_empty=("tool_call_id", "tool_name"), objects=("args",))


class ToolResult(_Observation, frozen=True, tag="tool-result", omit_defaults=True):
    """A result, partial (``complete: false``) or final; ``text`` accumulated."""

    tool_call_id: NonEmptyStr
    tool_name: NonEmptyStr
    text: str
    complete: bool
    is_error: bool
    descriptor: Descriptor | msgspec.UnsetType = msgspec.UNSET
    stored: StoredOutput | msgspec.UnsetType = msgspec.UNSET
    """The output was stored apart from the session (``contract.stored_output``)."""

    if TYPE_CHECKING:  # what a producer may pass: None means no descriptor

        def __init__(
            self,
            *,
            tool_call_id: str,
            tool_name: str,
            text: str,
            complete: bool,
            is_error: bool,
            descriptor: Descriptor | msgspec.UnsetType | None = msgspec.UNSET,
            stored: StoredOutput | msgspec.UnsetType = msgspec.UNSET,
            at: str | msgspec.UnsetType = msgspec.UNSET,
            parent_call_id: str | msgspec.UnsetType = msgspec.UNSET,
        ) -> None: ...

    def __post_init__(self) -> None:
        if (
            type(self.tool_call_id) is str
            and self.tool_call_id
            and type(self.tool_name) is str
            and self.tool_name
            and type(self.text) is str
            and type(self.complete) is bool
            and type(self.is_error) is bool
            and (self.descriptor is UNSET or type(self.descriptor) is Descriptor)
            and (self.stored is UNSET or type(self.stored) is StoredOutput)
            and marks_fine(self.at, self.parent_call_id)
        ):
            return
        check_fields(
            self,
            non_empty=("tool_call_id", "tool_name"),
            text=("text",),
            flags=("complete", "is_error"),
        )
        if not isinstance(self.stored, StoredOutput | msgspec.UnsetType):
            got = type(self.stored).__name__
            raise TypeError(f"ToolResult.stored: expected a StoredOutput, got {got}")
        if self.descriptor is None:  # None means no descriptor
            msgspec.structs.force_setattr(self, "descriptor", msgspec.UNSET)
        elif not isinstance(self.descriptor, Descriptor | msgspec.UnsetType):
            got = type(self.descriptor).__name__
            raise TypeError(f"ToolResult.descriptor: expected a Descriptor or None, got {got}")


class ToolRefused(_Observation, frozen=True, tag="tool-refused", omit_defaults=True):
    """A guard refused the call before it ran: not an error of the tool."""

    tool_call_id: NonEmptyStr
    tool_name: NonEmptyStr
    reason: str
    guard: str | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        if not (
            type(self.tool_call_id) is str
            and self.tool_call_id
            and type(self.tool_name) is str
            and self.tool_name
            and type(self.reason) is str
            and (self.guard is UNSET or type(self.guard) is str)
            and marks_fine(self.at, self.parent_call_id)
        ):
            check_fields(
                self,
                non_empty=("tool_call_id", "tool_name"),
                text=("reason",),
                optional_text=("guard",),
            )


class RunStarted(_Observation, frozen=True, tag="run-started", omit_defaults=True):
    """A run opened: until it ends, a call without a result is pending.

    What the host knows of the session where the run starts rides along,
    each optional: ``cwd`` (the working folder: the index's project),
    ``branch`` (its git branch) and ``title`` (the agent's own title or
    summary of the session, e.g. Claude Code's ``custom-title``). They are the
    user's own words and paths, untrusted like any text: every surface
    cleans, redacts and bounds them (``share --strip-home`` replaces the home
    in ``cwd`` too). A later run-started of the same session may restate them.
    ``machine`` and ``user`` say where the session ran, as ``toolview sync``
    declares them for a team server (self-declared: shown as said, not proven).
    """

    run_id: NonEmptyStr
    cwd: str | msgspec.UnsetType = msgspec.UNSET
    branch: str | msgspec.UnsetType = msgspec.UNSET
    title: str | msgspec.UnsetType = msgspec.UNSET
    machine: str | msgspec.UnsetType = msgspec.UNSET
    user: str | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        texts = (self.cwd, self.branch, self.title, self.machine, self.user)
        if not (
            type(self.run_id) is str
            and self.run_id
            and all(type(v) is str or v is UNSET for v in texts)
            and marks_fine(self.at, self.parent_call_id)
        ):
            check_fields(
                self,
                non_empty=("run_id",),
                optional_text=("cwd", "branch", "title", "machine", "user"),
            )


class RunEnded(_Observation, frozen=True, tag="run-ended", omit_defaults=True):
    """A run closed: a call still without a result is now aborted; ``reason`` says why."""

    run_id: NonEmptyStr
    outcome: RunOutcome
    # A few words (``interrupted by SIGINT``, an exception's type and message, a
    # server's error), untrusted like any text: every surface redacts, cleans and
    # bounds it where it shows it — the run's closing line, each call it aborted.
    reason: str | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        if not (
            type(self.run_id) is str
            and self.run_id
            and type(self.outcome) is str
            and self.outcome in _OUTCOMES
            and (self.reason is UNSET or type(self.reason) is str)
            and marks_fine(self.at, self.parent_call_id)
        ):
            check_fields(
                self,
                non_empty=("run_id",),
                optional_text=("reason",),
                choices={"outcome": _OUTCOMES},
            )


class Message(_Observation, frozen=True, tag="message"):
    """User or assistant text, so a thread reads as a conversation; ``thinking``: reasoning."""

    role: MessageRole
    text: str

    def __post_init__(self) -> None:
        if not (
            type(self.role) is str
            and self.role in _ROLES
            and type(self.text) is str
            and marks_fine(self.at, self.parent_call_id)
        ):
            check_fields(self, text=("text",), choices={"role": _ROLES})


class Usage(_Observation, frozen=True, tag="usage", omit_defaults=True):
    """The tokens one model turn took: summed per model in a thread's summary.

    ``cost_usd``: the dollars the agent itself said the turn cost (OpenCode's
    ``step-finish.cost``); when set it is the turn's price, the price table's
    otherwise (``contract.model_usage`` says which priced a thread)."""

    model: NonEmptyStr
    input_tokens: NonNegativeInt
    output_tokens: NonNegativeInt
    cache_read_tokens: NonNegativeInt | msgspec.UnsetType = msgspec.UNSET
    cache_write_tokens: NonNegativeInt | msgspec.UnsetType = msgspec.UNSET
    run_id: NonEmptyStr | msgspec.UnsetType = msgspec.UNSET
    cost_usd: Dollars | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        if (
            type(self.model) is str
            and self.model
            and type(self.input_tokens) is int
            and self.input_tokens >= 0
            and type(self.output_tokens) is int
            and self.output_tokens >= 0
            and _count_or_unset(self.cache_read_tokens)
            and _count_or_unset(self.cache_write_tokens)
            and (self.run_id is UNSET or (type(self.run_id) is str and self.run_id != ""))
            and _dollars_or_unset(self.cost_usd)
            and marks_fine(self.at, self.parent_call_id)
        ):
            return
        if not _dollars_or_unset(self.cost_usd):
            raise msgspec.ValidationError(
                f"Expected `cost_usd` to be dollars from 0 to {MAX_DOLLARS:.0f}"
            )
        check_fields(
            self,
            non_empty=("model",),
            counts=("input_tokens", "output_tokens"),
            optional_counts=("cache_read_tokens", "cache_write_tokens"),
        )
        if self.run_id is None:
            msgspec.structs.force_setattr(self, "run_id", msgspec.UNSET)
        elif self.run_id is not msgspec.UNSET:
            check_fields(self, non_empty=("run_id",))


class ToolWaiting(_Observation, frozen=True, tag="tool-waiting", omit_defaults=True):
    """A call waits for a person: what is asked, as the agent asked it.

    ``args`` are the arguments that will run (every surface redacts them for
    display); ``question`` the agent's own words; ``schema`` an elicitation's
    JSON schema for an answer. The ledger holds the call ``needs_input`` until
    one ``tool-decision`` (or the call's own result) settles it.
    """

    tool_call_id: NonEmptyStr
    tool_name: NonEmptyStr
    args: JSONObject | msgspec.UnsetType = msgspec.UNSET
    question: str | msgspec.UnsetType = msgspec.UNSET
    schema: JSONObject | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        check_fields(self, non_empty=("tool_call_id", "tool_name"), optional_text=("question",))
        for name in ("args", "schema"):
            if getattr(self, name) is not UNSET:
                check_fields(self, objects=(name,))


class ToolDecision(_Observation, frozen=True, tag="tool-decision", omit_defaults=True):
    """A person's decision on a waiting call, kept as a receipt: what, who, when, from where.

    ``by`` is the credential's or the machine's name as the server saw it
    (never what the client claims), ``via`` the address it came from, ``at``
    when; ``key`` the client's key, so a retry is answered, not applied twice.
    A decision applies once: one for a call that no longer waits is refused.
    """

    tool_call_id: NonEmptyStr
    decision: Decision
    by: NonEmptyStr
    message: str | msgspec.UnsetType = msgspec.UNSET
    answer: JSONObject | msgspec.UnsetType = msgspec.UNSET
    via: str | msgspec.UnsetType = msgspec.UNSET
    key: str | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        check_fields(
            self,
            non_empty=("tool_call_id", "by"),
            optional_text=("message", "via", "key"),
            choices={"decision": DECISIONS},
        )
        if self.answer is not UNSET:
            check_fields(self, objects=("answer",))


def _dollars_or_unset(value: object) -> bool:
    """Unset, or a finite float from 0 to ``MAX_DOLLARS`` (NaN fails every comparison)."""
    return value is UNSET or (type(value) in (int, float) and 0 <= value <= MAX_DOLLARS)  # type: ignore[operator]


def _count_or_unset(value: object) -> bool:
    """A token count the fast check accepts: unset, or an ``int`` (not a ``bool``) ≥ 0."""
    return value is UNSET or (type(value) is int and value >= 0)


Observation: TypeAlias = (
    ToolCall
    | ToolResult
    | ToolRefused
    | RunStarted
    | RunEnded
    | Message
    | Usage
    | ToolWaiting
    | ToolDecision
)

CALL_OBSERVATIONS: Final = (ToolCall, ToolResult, ToolRefused, ToolWaiting, ToolDecision)
"""The observations of one call (each names its ``tool_call_id``): they go where the call is."""


def is_partial(observation: Observation) -> TypeGuard[ToolResult]:
    """Whether ``observation`` is a partial result: output so far, replaced by the next one.

    The one definition: the wire elides or coalesces these, a live view shows
    them, and a call's state machine takes them as ``partial``.
    """
    return isinstance(observation, ToolResult) and not observation.complete


_DECODER = msgspec.json.Decoder(Observation)
_ENCODER = msgspec.json.Encoder(enc_hook=enc_hook)
_PATH_SUFFIX = re.compile(r" - at `(?P<path>\$[^`]*)`$")
_ECHOED_VALUE = re.compile(
    r"(?P<head>Invalid (?:enum )?value )(?P<quote>['\"])(?P<value>.*)(?P=quote)\Z", re.DOTALL
)
_ECHO_LIMIT = 60
_AT_REGEX = f"Expected `str` matching regex {TIMESTAMP_PATTERN!r}"
AT_REASON = "not an RFC 3339 time in UTC (like 2026-12-01T23:44:20.123Z: date, T, time, Z)"


class ObservationError(ValueError):
    """A line that breaks the contract, with the JSON path it broke at."""

    def __init__(self, reason: str, path: str = "$") -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason
        self.path = path


def decode_observation(line: bytes | str) -> Observation:
    """Decode one JSON observation, or raise ``ObservationError`` naming the path."""
    try:
        observation: Observation = _DECODER.decode(line)
        return observation
    except msgspec.ValidationError as exc:
        raise _with_path(str(exc)) from None
    except msgspec.DecodeError as exc:
        raise ObservationError(f"malformed JSON: {exc}") from None
    except RecursionError:
        raise ObservationError("JSON nested too deeply") from None
    except UnicodeError:
        raise ObservationError("not valid UTF-8 (or a lone surrogate)") from None


def encode_observation(observation: Observation) -> bytes:
    """Encode an observation as compact JSON (camelCase, absent fields omitted)."""
    return _ENCODER.encode(observation)


def _with_path(message: str) -> ObservationError:
    match = _PATH_SUFFIX.search(message)
    if match is None:
        return ObservationError(_bound_echo(message))
    return ObservationError(_reason(message[: match.start()]), match.group("path"))


def _reason(reason: str) -> str:
    """msgspec's reason, in words where it would quote a regular expression at the reader."""
    if reason == _AT_REGEX:
        return AT_REASON
    return _bound_echo(reason)


def _bound_echo(reason: str) -> str:
    """Quote a rejected value the way a reader can trust: short, one line, no controls.

    msgspec echoes an invalid tag or enum value verbatim; that value is
    untrusted input and may be megabytes long or carry newlines, terminal
    escapes and bidi controls — which would then reach a terminal (``toolview
    check``) or an HTTP error. So: at most ``_ECHO_LIMIT`` characters, and every
    non-printable character written as its ``\\uXXXX`` escape.
    """
    match = _ECHOED_VALUE.match(reason)
    if match is None:
        return reason
    value = match.group("value")
    shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in value[:_ECHO_LIMIT])
    more = f"… ({len(value)} characters)" if len(value) > _ECHO_LIMIT else ""
    quote = match.group("quote")
    return f"{match.group('head')}{quote}{shown}{quote}{more}"
