"""Random threads of every shape the summary and a call's markup depend on."""

from __future__ import annotations

import msgspec
from hypothesis import strategies as st

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolResult,
    ToolWaiting,
    Usage,
)

__all__ = ["marked", "results", "threads"]

CALLS = ["a", "b", "c", "d"]
# times in and out of order, and one that does not exist (read as no time)
ATS = st.sampled_from(
    [msgspec.UNSET, "2026-12-01T23:44:20Z", "2026-12-01T23:56:23.5Z", "2026-02-31T00:00:00Z"]
)
# a sub-agent's calls; its marks name a call of the thread, a call of a sub-agent
# (a sub-agent's sub-agent), or a call the thread never sees
SUB_CALLS = ["x", "y"]
MARKS = ["a", "b", "x", "ghost"]
STATUSES = ["ok", "failed", "denied", "timed_out", "canceled", "pending", "weird", "needs_input"]


def envelope(status: str) -> dict[str, object]:
    return {"schemaVersion": "1.0", "tool": "t", "status": status, "summary": "said"}


@st.composite
def results(draw: st.DrawFn, call: str) -> Observation:
    """A final result of any shape the status decision looks at."""
    shape = draw(st.integers(0, 5))
    is_error = draw(st.booleans())
    status = draw(st.sampled_from(STATUSES))
    text, descriptor = draw(st.text(max_size=12)), None
    if shape == 1:  # an envelope in the text, no descriptor
        text = msgspec.json.encode(envelope(status)).decode()
    elif shape == 2:  # a descriptor of kind envelope, valid
        descriptor = Descriptor("envelope", envelope(status))
    elif shape == 3:  # a descriptor of kind envelope whose props do not validate
        descriptor = Descriptor("envelope", {"status": status})
    elif shape == 4:  # a shell descriptor, valid or not
        props = {"command": "ls", "exitCode": 1, "stdout": text, "stderr": ""}
        descriptor = Descriptor("shell", props if draw(st.booleans()) else {"command": 3})
    if descriptor is None:
        return ToolResult(call, "tool", text, complete=True, is_error=is_error)
    return ToolResult(call, "tool", text, True, is_error, descriptor)


@st.composite
def threads(draw: st.DrawFn, asks: bool = False) -> list[Observation]:
    """``asks``: a person is asked about calls and decides too (not every consumer says it yet)."""
    out: list[Observation] = []
    for _ in range(draw(st.integers(1, 30))):
        call = draw(st.sampled_from(CALLS))
        step = draw(st.integers(0, 10))
        if step >= 9:  # a sub-agent's observation, marked with the call that ran it
            out.append(draw(marked()))
            out[-1] = msgspec.structs.replace(out[-1], at=draw(ATS))
            continue
        if step <= 1:
            out.append(ToolCall(call, "shell", {"n": step}))
        elif step == 2:
            text = draw(st.text(max_size=8))
            out.append(ToolResult(call, "shell", text, complete=False, is_error=False))
        elif step == 3:
            out.append(draw(results(call)))
        elif step == 4:
            out.append(ToolRefused(call, "shell", draw(st.text(max_size=8))))
        elif step == 5:
            run = draw(st.sampled_from(["r1", "r2"]))
            outcome = draw(st.sampled_from(["completed", "aborted", "error"]))
            reason = draw(st.sampled_from(["", "interrupted by SIGINT", "gone"]))
            out.append(RunStarted(run) if draw(st.booleans()) else RunEnded(run, outcome, reason))
        elif (
            step == 6 and asks
        ):  # a person is asked, or decides (applied once, only while it waits)
            if draw(st.booleans()):
                out.append(ToolWaiting(tool_call_id=call, tool_name="shell", question="ok?"))
            else:
                decision = draw(st.sampled_from(["allow", "deny"]))
                out.append(ToolDecision(tool_call_id=call, decision=decision, by="me"))
        elif step == 8:
            model = draw(st.sampled_from(["m1", "m2"]))
            cache = draw(st.sampled_from([msgspec.UNSET, 0, 7]))
            out.append(Usage(model=model, input_tokens=3, output_tokens=1, cache_read_tokens=cache))
        else:
            role = draw(st.sampled_from(["user", "thinking"]))
            out.append(Message(role, draw(st.text(max_size=8))))
        out[-1] = msgspec.structs.replace(out[-1], at=draw(ATS))
    return out


@st.composite
def marked(draw: st.DrawFn) -> Observation:
    """One observation of a sub-agent: a call, a result, a message, a turn's usage, a run's end."""
    call = draw(st.sampled_from(SUB_CALLS))
    step = draw(st.integers(0, 4))
    observation: Observation
    if step == 0:
        observation = ToolCall(call, "shell", {"prompt": "p", "subagent_type": "t"})
    elif step == 1:
        observation = draw(results(call))
    elif step == 2:
        observation = Message("assistant", draw(st.text(max_size=8)))
    elif step == 3:
        observation = Usage(model="m", input_tokens=draw(st.integers(0, 9)), output_tokens=1)
    else:
        observation = RunEnded("sub", "completed", draw(st.sampled_from(["", "gone"])))
    mark = draw(st.sampled_from([m for m in MARKS if m != call]))
    return msgspec.structs.replace(observation, parent_call_id=mark)
