"""Gemini CLI's chat-file record kinds as ``toolview doctor`` counts them: declared from the
pinned 0.61.0 package's own chat recorder, all known in the real CLI's chat, and a kind no
version wrote counted with where it was first seen."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from scripted_agents.doctor_rows import NODE_MODULES, doctor_row, pinned_version, plant
from toolview.hosts.gemini import VERIFIED, record_type
from toolview.hosts.gemini.records import MESSAGES

from .conftest import REAL

PACKAGE = "@google/gemini-cli"


def _bundle() -> str:
    return "".join(p.read_text() for p in sorted((NODE_MODULES / PACKAGE / "bundle").glob("*.js")))


def test_the_declared_kinds_are_the_pinned_gemini_clis() -> None:
    assert pinned_version(PACKAGE) == VERIFIED
    source = _bundle()
    written = set(re.findall(r'recordMessage\(\{[^{}]*?\btype: "(\w+)"', source))
    assert written == MESSAGES  # every message type the recorder writes, and no other
    for shape in ('isStringProperty(record2, "$rewindTo")', 'isObjectProperty(record2, "$set")'):
        assert shape in source
    assert 'isStringProperty(record2, "sessionId")' in source  # the metadata line


def test_kinds_are_named_by_shape() -> None:
    assert record_type({"$rewindTo": "m1", "id": "x"}) == "$rewindTo"
    assert record_type({"id": "m1", "type": "gemini"}) == "gemini"
    assert record_type({"$set": {"messages": []}}) == "$set"
    assert record_type({"sessionId": "s", "projectHash": "h"}) == "metadata"
    assert record_type({"zeta": 1, "alpha": 2}) == "{alpha, zeta}"


def test_the_real_chat_is_checked_against_0_61_0(tmp_path: Path) -> None:
    shutil.copytree(REAL, tmp_path / ".gemini" / "tmp")
    row = doctor_row("gemini", tmp_path)
    assert row["checked"] is True and row["checkedAgainst"] == "0.61.0"
    assert row["sessions"] == 1 and row["unmapped"] == {} and row["unreadableLines"] == 0
    assert isinstance(row["records"], int) and row["records"] >= 5


def test_an_undeclared_kind_is_counted_with_where_it_was_first_seen(tmp_path: Path) -> None:
    shutil.copytree(REAL, tmp_path / "tmp")
    chat = next((tmp_path / "tmp").glob("*/chats/session-*.jsonl"))
    novel = '{"id":"m-new","type":"hologram","content":"x"}'
    at = plant(chat, novel, '{"$fork":"m1"}', novel)
    unmapped = doctor_row("gemini", tmp_path, "--gemini", str(tmp_path / "tmp"))["unmapped"]
    assert unmapped == {
        "hologram": {"count": 2, "first": f"{chat} line {at}"},
        "{$fork}": {"count": 1, "first": f"{chat} line {at + 1}"},  # a shape named by its keys
    }
