"""Props: strict per kind, rejected (never coerced) when they do not match."""

from __future__ import annotations

from typing import Any

import pytest

from toolview.contract import (
    KIND_PROPS,
    Envelope,
    FileProps,
    PropsError,
    ShellProps,
    TableProps,
    validate_props,
)

VALID: dict[str, dict[str, Any]] = {
    "shell": {"command": "ls", "exitCode": None, "stdout": "", "stderr": ""},
    "file": {"path": "a", "content": "", "startLine": 1},
    "diff": {"diff": ""},
    "json": {"value": None},
    "table": {"columns": ["a"], "rows": [[1]]},
    "links": {"links": [{"title": "t", "url": "https://x"}]},
    "image": {"mimeType": "image/png", "data": ""},
    "markdown": {"markdown": ""},
    "envelope": {"schemaVersion": "1.9", "tool": "t", "status": "ok"},
    "blocks": {"blocks": [{"type": "text", "text": "x"}]},
    "todo": {"items": [{"content": "x", "status": "pending"}]},
}

INVALID: list[tuple[str, dict[str, Any]]] = [
    ("shell", {"command": "ls", "exitCode": "0", "stdout": "", "stderr": ""}),
    ("shell", {"command": "ls", "exitCode": 0.0, "stdout": "", "stderr": ""}),
    ("shell", {"command": "ls", "exitCode": True, "stdout": "", "stderr": ""}),
    ("shell", {"command": "ls", "exitCode": 0, "stdout": ""}),
    ("shell", {"command": "ls", "exitCode": 0, "stdout": "", "stderr": "", "durationMs": -1}),
    ("shell", {"command": "ls", "exitCode": 0, "stdout": "", "stderr": "", "durationMs": None}),
    ("file", {"path": "a", "content": "", "startLine": 0}),
    ("file", {"path": "a", "content": 3}),
    ("diff", {"path": "a"}),
    ("json", {}),
    ("table", {"columns": ["a", "b"], "rows": [[1]]}),
    ("table", {"columns": [1], "rows": []}),
    ("links", {"links": [{"title": "t"}]}),
    ("image", {"mimeType": "image/png"}),
    ("markdown", {"markdown": None}),
    ("envelope", {"schemaVersion": "2.0", "tool": "t", "status": "ok"}),
    ("envelope", {"tool": "t", "status": "ok"}),
    ("blocks", {"blocks": [{"type": "video", "uri": "x"}]}),
    ("blocks", {"blocks": [{"type": "structured", "view": "chart", "props": {}}]}),
    ("blocks", {"blocks": [], "notes": None}),
    ("todo", {"items": [{"content": "x", "status": "done"}]}),
    ("todo", {"items": [{"content": "x"}]}),
]


def test_every_built_in_kind_has_props_and_a_valid_example() -> None:
    assert set(VALID) == set(KIND_PROPS)
    for kind, props in VALID.items():
        validated = validate_props(kind, props)
        assert isinstance(validated, KIND_PROPS[kind]), kind


@pytest.mark.parametrize(("kind", "props"), INVALID)
def test_props_that_do_not_match_are_rejected(kind: str, props: dict[str, Any]) -> None:
    with pytest.raises(PropsError):
        validate_props(kind, props)


def test_the_error_names_the_path() -> None:
    with pytest.raises(PropsError, match=r"\$\.exitCode"):
        validate_props("shell", INVALID[0][1])
    with pytest.raises(PropsError, match="row 0 has 1 cells, expected 2"):
        validate_props("table", {"columns": ["a", "b"], "rows": [[1]]})


def test_camel_case_on_the_wire_snake_case_in_python() -> None:
    shell = validate_props("shell", {**VALID["shell"], "durationMs": 7})
    assert isinstance(shell, ShellProps) and shell.duration_ms == 7
    file = validate_props("file", {"path": "a", "content": "x", "startLine": 4})
    assert isinstance(file, FileProps) and file.start_line == 4


def test_unknown_extra_props_are_ignored_and_custom_kinds_pass_through() -> None:
    table = validate_props("table", {"columns": [], "rows": [], "caption": "new"})
    assert isinstance(table, TableProps)
    raw = {"spin": 3}
    assert validate_props("acme.widget", raw) is raw
    assert isinstance(validate_props("envelope", VALID["envelope"]), Envelope)
