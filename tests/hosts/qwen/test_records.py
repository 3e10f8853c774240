"""Qwen Code's record types as ``toolview doctor`` counts them: declared from the pinned
0.24.4 package's own lists (``RECORD_TYPES``, ``KNOWN_RECORD_SUBTYPES``), all known in the
real CLI's chat, and an undeclared one counted with where it was first seen."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from scripted_agents.doctor_rows import NODE_MODULES, doctor_row, pinned_version, plant
from toolview.hosts.qwen import VERIFIED, record_type
from toolview.hosts.qwen.records import MAPPED, SKIPPED_SUBTYPES

PACKAGE = "@qwen-code/qwen-code"
REAL = Path(__file__).parent / "real" / "projects"


def _declared_set(name: str) -> set[str]:
    """The string members of ``var NAME = new Set([...])`` in the package's chunks."""
    pattern = re.compile(rf"var {name} = /\* @__PURE__ \*/ new Set\(\[([^\]]*)\]\)")
    for chunk in sorted((NODE_MODULES / PACKAGE / "chunks").glob("*.js")):
        found = pattern.search(chunk.read_text())
        if found:
            return set(re.findall(r'"([a-z_0-9]+)"', found.group(1)))
    raise AssertionError(f"{name} is not in {PACKAGE}")


def test_the_declared_types_are_the_pinned_qwen_codes() -> None:
    assert pinned_version(PACKAGE) == VERIFIED
    assert _declared_set("RECORD_TYPES") == MAPPED | {"system"}
    subtypes = _declared_set("KNOWN_RECORD_SUBTYPES")
    assert len(subtypes) >= 25 and subtypes >= SKIPPED_SUBTYPES


def test_a_system_record_is_named_with_its_subtype() -> None:
    assert record_type({"type": "system", "subtype": "ui_telemetry"}) == "system:ui_telemetry"
    assert record_type({"type": "system"}) == "system:?"
    assert record_type({"type": "tool_result"}) == "tool_result"
    assert record_type({"subtype": "x"}) is None


def test_the_real_chat_is_checked_against_0_24_4(tmp_path: Path) -> None:
    shutil.copytree(REAL, tmp_path / ".qwen" / "projects")
    row = doctor_row("qwen", tmp_path)
    assert row["checked"] is True and row["checkedAgainst"] == "0.24.4"
    assert row["sessions"] == 1 and row["unmapped"] == {} and row["records"] == 25


def test_an_undeclared_type_is_counted_with_where_it_was_first_seen(tmp_path: Path) -> None:
    shutil.copytree(REAL, tmp_path / "projects")
    (chat,) = (tmp_path / "projects").rglob("*.jsonl")
    rewind = '{"type":"system","subtype":"rewind"}'  # 0.24.4 writes it; the reader does not read it
    at = plant(chat, rewind, '{"type":"hologram"}', rewind)
    row = doctor_row("qwen", tmp_path, "--qwen", str(tmp_path / "projects"))
    assert row["unmapped"] == {
        "system:rewind": {"count": 2, "first": f"{chat} line {at}"},
        "hologram": {"count": 1, "first": f"{chat} line {at + 1}"},
    }
