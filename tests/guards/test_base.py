"""The guard protocol and composition: the first refusal wins."""

from __future__ import annotations

from toolview.contract import ToolCall, ToolRefused
from toolview.guards import ALLOW, AllGuards, Allow, Decision, Guard, Refuse, refusal_observation

CALL = ToolCall(tool_call_id="c1", tool_name="shell", args={"command": "ls"})


class Fixed:
    def __init__(self, name: str, decision: Decision) -> None:
        self.name = name
        self.decision = decision
        self.asked = 0

    def check(self, call: ToolCall) -> Decision:
        self.asked += 1
        return self.decision


def test_a_class_with_name_and_check_is_a_guard() -> None:
    assert isinstance(Fixed("x", ALLOW), Guard)
    assert isinstance(AllGuards([]), Guard)


def test_all_guards_first_refusal_wins_and_stops() -> None:
    first = Fixed("first", ALLOW)
    second = Fixed("second", Refuse("no", "second"))
    third = Fixed("third", Refuse("also no", "third"))
    assert AllGuards([first, second, third]).check(CALL) == Refuse("no", "second")
    assert (first.asked, second.asked, third.asked) == (1, 1, 0)


def test_all_guards_allow_when_all_allow() -> None:
    assert isinstance(AllGuards([Fixed("a", ALLOW), Fixed("b", Allow())]).check(CALL), Allow)
    assert AllGuards([]).check(CALL) == ALLOW


def test_a_refusal_becomes_a_tool_refused_observation() -> None:
    observation = refusal_observation(CALL, Refuse("destructive", "rules.toml"))
    assert observation == ToolRefused(
        tool_call_id="c1", tool_name="shell", reason="destructive", guard="rules.toml"
    )
