"""Replay every input that ever failed (tests/fuzz/regressions/<target>/<name>.*).

Each file is one input, as small as the fuzzer shrank it. A ``<name>.xfail``
beside it names a bug in ``fuzz.properties.KNOWN_BUGS`` that is reported but
not yet fixed: the case is ``xfail(strict=True)``, so the fix shows up as an
XPASS failure and the marker (and the tolerance in the fuzz run) must go.
Replays run strict: no known-bug tolerance.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from fuzz import properties
from fuzz.properties import (
    KNOWN_BUGS,
    check_decode_observation,
    check_observations,
    check_parse_envelope,
    check_read_descriptor,
)
from fuzz.surface_checks import check_thread, one_call
from fuzz.test_guards_fuzz import check_rules
from fuzz.test_ingest_fuzz import LOOPBACK, check_ingest
from toolview.contract import ToolResult
from toolview.hosts import mcp, pi
from toolview.server import create_app
from toolview.wire.log.sqlite import SQLiteLog

FOLDER = Path(__file__).parent / "regressions"


def _pi(data: bytes) -> None:
    try:
        check_observations(pi.load_observations(data))
    except pi.PiFormatError as error:
        assert str(error)


def _mcp(data: bytes) -> None:
    try:
        check_observations(mcp.load_observations(data))
    except mcp.StoredResultsError as error:
        assert str(error)


def _mcp_map(data: bytes) -> None:
    result = mcp.map_result(json.loads(data))
    assert isinstance(result, ToolResult)
    check_observations([result])


def _surfaces(data: bytes) -> None:
    case: dict[str, Any] = json.loads(data)
    thread = one_call(
        case["tool"],
        case["kind"],
        case["props"],
        case["text"],
        case.get("truncated"),
        (True, False, True),
    )
    check_thread(thread, case["tool"], 80)


REPLAY: dict[str, Callable[[bytes], object]] = {
    "decode_observation": check_decode_observation,
    "parse_envelope": check_parse_envelope,
    "read_descriptor": lambda data: check_read_descriptor(json.loads(data)),
    "pi_load": _pi,
    "mcp_load": _mcp,
    "mcp_map": _mcp_map,
    "parse_rules": lambda data: check_rules(data.decode("utf-8")),
    "surfaces": _surfaces,
}


def cases() -> list[Any]:
    found = []
    for path in sorted(FOLDER.glob("*/*")):
        if path.suffix == ".xfail":
            continue
        marks = []
        bug = path.with_suffix(".xfail")
        if bug.exists():
            name = bug.read_text(encoding="utf-8").strip()
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[name]))
        found.append(pytest.param(path, marks=marks, id=f"{path.parent.name}/{path.name}"))
    return found


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(properties, "STRICT", True)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = tmp_path_factory.mktemp("replay") / "log.db"
    with TestClient(
        create_app(lambda: SQLiteLog(path)), **LOOPBACK, raise_server_exceptions=False
    ) as c:
        c.post("/api/threads", json={"id": "fuzz"})
        yield c


def test_every_target_has_a_replay() -> None:
    targets = {path.name for path in FOLDER.iterdir() if path.is_dir()}
    assert targets <= {*REPLAY, "ingest"}, targets - {*REPLAY, "ingest"}


def test_every_xfail_names_a_known_bug() -> None:
    for marker in FOLDER.glob("*/*.xfail"):
        assert marker.read_text(encoding="utf-8").strip() in KNOWN_BUGS, marker


@pytest.mark.parametrize("path", cases())
def test_regression(path: Path, request: pytest.FixtureRequest) -> None:
    data = path.read_bytes()
    if path.parent.name == "ingest":
        check_ingest(request.getfixturevalue("client"), data)
    else:
        REPLAY[path.parent.name](data)
