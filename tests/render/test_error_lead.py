"""``holds_text``: whether a kind body already shows an error's text (then it is not said twice)."""

from __future__ import annotations

import pytest

from toolview import DiffProps, ShellProps
from toolview.render import error_lead
from toolview.render.error_lead import holds_text


def test_a_command_s_output_holds_its_text_a_diff_does_not_hold_a_message() -> None:
    shell = ShellProps(command="ls", exit_code=2, stdout="", stderr="  ls: /x: missing\n")
    assert holds_text(shell, "\nls: /x: missing\nmore")  # the first non-blank line decides
    diff = DiffProps(diff="--- a/n\n+++ b/n\n@@\n alpha\n")
    assert not holds_text(diff, "apply_patch verification failed: …\nalpha")
    assert holds_text(diff, "  \n")  # nothing to say: nothing drawn first


def test_raw_props_of_a_custom_kind_are_read_and_odd_ones_hold_nothing() -> None:
    assert holds_text({"rows": [["a", {"why": "it broke"}]]}, "it broke")
    assert not holds_text({"n": 1}, "it broke")
    assert not holds_text(object(), "it broke")


def test_props_past_the_budget_hold_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(error_lead, "_BUDGET", 10)  # the module's bound, made small
    assert not holds_text({"a": "x" * 11 + "\nit broke"}, "it broke")
    assert holds_text({"a": "it broke"}, "it broke")
