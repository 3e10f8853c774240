"""``toolview doctor`` on Copilot CLI's sessions: the real one's event types are all known,
a type 1.0.102 does not declare is counted with where it was first seen."""

from __future__ import annotations

import json
from pathlib import Path

from scripted_agents.surfaces import toolview
from toolview.hosts.copilot import KNOWN_RECORDS, record_type

from .records import event, session, write

REAL = Path(__file__).parent / "real" / "session-state"


def _copilot_row(folder: Path) -> dict[str, object]:
    done = toolview("doctor", "--json", "--copilot", str(folder))
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    (row,) = [r for r in rows if r["agent"] == "copilot"]
    return row


def test_every_event_type_of_the_real_session_is_known() -> None:
    seen = {record_type(json.loads(line)) for line in next(REAL.rglob("*.jsonl")).open()}
    assert seen <= KNOWN_RECORDS and len(seen) >= 12
    row = _copilot_row(REAL)
    assert row["checked"] is True and row["sessions"] == 1 and row["unmapped"] == {}


def test_an_undeclared_type_is_counted_by_doctor(tmp_path: Path) -> None:
    novel = event("assistant.hologram", {})
    write(tmp_path, session(novel, novel, novel))
    unmapped = _copilot_row(tmp_path)["unmapped"]
    assert isinstance(unmapped, dict) and list(unmapped) == ["assistant.hologram"]
    assert unmapped["assistant.hologram"]["count"] == 3
    assert str(unmapped["assistant.hologram"]["first"]).endswith("events.jsonl line 3")
