"""Follow frames back into observations: the client side of ``wire.follow`` (sans-IO).

Why a module of its own: in live mode a running call's output crosses as
append / slide / reset deltas (``tool-output`` frames), so a follower must keep
each running call's text and apply every delta to it — with ``delta.apply``,
the same function the log uses to rebuild what it stored, so the text a
follower rebuilds is exactly the text the server sent: the producer's text
redacted and cleaned, its colours as SUB-marked SGR parameters, which become
``ESC[…m`` again here so a local surface reads them as colours (they are the
only sequences left: the server removed every other). Every other frame is an
observation, whole. Anything else is a ``FrameError``: a
client never guesses at a frame it cannot read.
"""

from __future__ import annotations

from typing import Final

import msgspec

from toolview.contract import ObservationError, ToolResult, decode_observation
from toolview.safety.output import STYLE_MARK
from toolview.wire.delta import Append, Delta, DeltaError, Reset, Slide, apply
from toolview.wire.feed import LogItem
from toolview.wire.follow import OutputFrame

__all__ = ["FrameError", "LiveRebuilder"]

_OUTPUT_TAG: Final = b'"tool-output"'
_OUTPUT_DECODER = msgspec.json.Decoder(OutputFrame)
_SNIPPET: Final = 120


class FrameError(ValueError):
    """A frame that is not a follow frame, or a delta that cannot apply; says which."""


class LiveRebuilder:
    """Turns the frames of one live follow stream into ``LogItem``s.

    ``texts`` holds the rebuilt text of each running call; a completed result
    drops it. A resumed stream starts each running call with a ``reset``, so
    the same rebuilder carries on across reconnections.
    """

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    def decode(self, seq: int, data: str | bytes) -> LogItem:
        """The observation a frame with ``id: seq`` stands for; ``FrameError`` if unreadable."""
        raw = data.encode() if isinstance(data, str) else data
        if _OUTPUT_TAG in raw[:200] and raw.lstrip().startswith(b"{"):
            output = _decode_output(seq, raw)
            if output is not None:
                return self._apply(seq, output)
        try:
            observation = decode_observation(raw)
        except ObservationError as exc:
            raise FrameError(f"frame {seq}: {exc.path}: {exc.reason} in {_snippet(raw)}") from None
        if isinstance(observation, ToolResult) and observation.complete:
            self.texts.pop(observation.tool_call_id, None)
        return LogItem(seq, observation)

    def _apply(self, seq: int, frame: OutputFrame) -> LogItem:
        delta = _delta(seq, frame)
        call_id = frame.tool_call_id
        try:
            text = apply(self.texts.get(call_id), delta)
        except DeltaError as exc:
            raise FrameError(f"frame {seq}: call {_short(call_id)}: {exc}") from None
        if frame.complete:
            self.texts.pop(call_id, None)
        else:
            self.texts[call_id] = text
        result = ToolResult(
            tool_call_id=call_id,
            tool_name=frame.tool_name,
            text=text.replace(STYLE_MARK, "\x1b["),
            complete=frame.complete,
            is_error=frame.is_error,
            descriptor=frame.descriptor,
            at=frame.at,
            parent_call_id=frame.parent_call_id,
        )
        return LogItem(seq, result, delta)


def _decode_output(seq: int, raw: bytes) -> OutputFrame | None:
    """The ``tool-output`` frame in ``raw``; ``None`` if it is some other kind."""
    try:
        return _OUTPUT_DECODER.decode(raw)
    except msgspec.ValidationError as exc:
        message = str(exc)
        if message.startswith("Invalid value") and message.endswith("`$.kind`"):
            return None  # another kind whose text merely mentions tool-output
        raise FrameError(f"frame {seq}: {_short(message)} in {_snippet(raw)}") from None
    except (msgspec.DecodeError, RecursionError, UnicodeError) as exc:
        reason = _short(str(exc))
        raise FrameError(f"frame {seq}: malformed JSON ({reason}) in {_snippet(raw)}") from None


def _delta(seq: int, frame: OutputFrame) -> Delta:
    """The frame's delta; an op this client does not know is an error, not a guess."""
    if frame.op == "append":
        return Append(frame.text)
    if frame.op == "reset":
        return Reset(frame.text)
    if frame.op == "slide" and frame.drop >= 1:
        return Slide(frame.drop, frame.text)
    raise FrameError(f"frame {seq}: unknown output op {_short(frame.op)} (drop={frame.drop})")


def _short(text: str) -> str:
    """``text`` cut short and quoted with its controls escaped: safe in any terminal."""
    return repr(text[:_SNIPPET] + ("…" if len(text) > _SNIPPET else ""))


def _snippet(raw: bytes) -> str:
    text = raw[:_SNIPPET].decode("utf-8", "replace")
    return repr(text + ("…" if len(raw) > _SNIPPET else ""))
