"""Golden html renders: one per kind and per branch of the fixed order.

Each case is a fixed thread (not the examples, which may grow); its rendered
fragment must equal ``golden/<case>.html``. Regenerate after a deliberate
change with ``TOOLVIEW_REGEN_GOLDEN=1 pytest tests/render/html`` and review
the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest
from render_samples import PROGRESS, SGR_FAMILIES, TIMED_OBSERVATIONS, TODO, subagent_observations

from corpora.wide_table import WIDE_TABLE
from toolview.contract import decode_observation, encode_observation
from toolview.contract.thread import Thread
from toolview.render.html import REGISTRY, render_thread_html
from toolview.render.limits import Limits
from toolview.render.registry import Registry
from toolview.render.view import KindBody

GOLDEN = Path(__file__).parent / "golden"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4"
    "2mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
SMALL = Limits(max_lines=3, max_chars=400, max_rows=2, max_columns=2, max_links=1)


def _result(kind: str | None, props: Any = None, **extra: Any) -> list[dict[str, Any]]:
    result: dict[str, Any] = {
        "kind": "tool-result",
        "toolCallId": "call-1",
        "toolName": "tool",
        "text": extra.pop("text", "the text"),
        "complete": extra.pop("complete", True),
        "isError": extra.pop("isError", False),
    }
    if kind is not None:
        result["descriptor"] = {"kind": kind, "props": props, **extra}
    call = {"kind": "tool-call", "toolCallId": "call-1", "toolName": "tool", "args": {"a": 1}}
    return [{"kind": "run-started", "runId": "r"}, call, result]


ENDED = {"kind": "run-ended", "runId": "r", "outcome": "aborted"}
SHELL = {"command": "make", "exitCode": 0, "stdout": "ok\n", "stderr": "", "durationMs": 1500}
LONG = "\n".join(f"line {n}" for n in range(1, 11))
ENVELOPE = {
    "schemaVersion": "1.2",
    "tool": "lookup",
    "status": "not_found",
    "summary": "No record 42",
    "errorCode": "E_MISSING",
    "data": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}],
}

CASES: dict[str, list[dict[str, Any]]] = {
    "shell": _result("shell", SHELL),
    "shell-stderr-no-exit": _result(
        "shell", {"command": "x", "exitCode": None, "stdout": "", "stderr": "killed"}
    ),
    "shell-empty": _result("shell", {"command": "true", "exitCode": 0, "stdout": "", "stderr": ""}),
    "file": _result(
        "file", {"path": "a.py", "content": "def f():\n    return 1\n", "startLine": 10}
    ),
    "file-long": _result("file", {"path": "n.txt", "content": LONG, "language": "text"}),
    "diff": _result("diff", {"diff": "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n", "path": "a"}),
    "json": _result("json", {"value": {"k": [1, 2, {"deep": None}], "password": "hunter22"}}),
    "table": _result("table", {"columns": ["a", "b", "c"], "rows": [[1, "x", None]] * 4}),
    "table-wide": _result("table", WIDE_TABLE),
    "links": _result(
        "links",
        {"links": [{"title": "Ex", "url": "https://example.com/?q=<b>", "snippet": "s"}] * 2},
    ),
    "links-refused": _result("links", {"links": [{"title": "Bad", "url": "javascript:alert(1)"}]}),
    "image": _result("image", {"mimeType": "image/png", "data": PNG, "alt": "a pixel"}),
    "image-svg": _result("image", {"mimeType": "image/svg+xml", "data": "PHN2Zz4=", "alt": "v"}),
    "markdown": _result(
        "markdown", {"markdown": "# T\n\n[ok](https://x.org) ![i](https://x.org/i.png) <b>raw</b>"}
    ),
    "envelope-descriptor": _result("envelope", ENVELOPE),
    "envelope-text": _result(None, text=json.dumps(ENVELOPE)),
    "unknown-kind": _result("acme.widget", {"spin": 3}),
    "invalid-props": _result("shell", {"command": 3}),
    "failing-renderer": _result("boom", {}),
    "truncated-lines": _result(
        "json", {"value": 1}, truncated={"shown": 1, "total": 4001, "unit": "lines"}
    ),
    "truncated-bytes": _result(
        "json", {"value": 1}, truncated={"shown": 1024, "total": 4096, "unit": "bytes"}
    ),
    "truncated-items": _result(
        "json", {"value": 1}, truncated={"shown": 1, "total": 2, "unit": "items"}
    ),
    "pending": _result(None, text="partial output", complete=False),
    "shell-sgr": _result(
        "shell",
        {"command": "ls", "exitCode": 0, "stdout": SGR_FAMILIES, "stderr": "\x1b[31mred\x1b[0m"},
    ),
    "shell-progress": _result(
        "shell", {"command": "make", "exitCode": 0, "stdout": PROGRESS, "stderr": "1%\r100%\n"}
    ),
    "text-progress": _result(None, text=PROGRESS),
    "pending-progress": _result(None, text=PROGRESS + "\x1b[33mstep 1\rstep 2", complete=False),
    "aborted": [*_result(None, text="", complete=False), ENDED],
    "refused": [
        *_result(None)[:2],
        {
            "kind": "tool-refused",
            "toolCallId": "call-1",
            "toolName": "tool",
            "reason": "rm -rf",
            "guard": "rules",
        },
    ],
    "error": _result(
        "shell", SHELL, text="Traceback (most recent call last):\n  x\nOSError: no", isError=True
    ),
    "empty-success": _result(None, text=""),
    "subagent": [json.loads(encode_observation(o)) for o in subagent_observations()],
    "todo": _result("todo", TODO),
    "todo-cut": _result("todo", TODO, truncated={"shown": 5, "total": 9, "unit": "items"}),
    "messages": [
        {"kind": "message", "role": "user", "text": "Hi <b>there</b>"},
        {"kind": "message", "role": "assistant", "text": "Done."},
    ],
}


BLOCKS = {
    "blocks": [
        {"type": "text", "text": "Here is <b>the</b> image:"},
        {"type": "image", "mimeType": "image/png", "size": 67, "data": PNG},
        {"type": "image", "mimeType": "image/svg+xml", "size": 5, "data": "PHN2Zz4="},
        {"type": "image", "mimeType": "image/png", "size": 9_000_000},
        {"type": "audio", "mimeType": "audio/wav", "size": 12000},
        {"type": "resource_link", "uri": "https://example.com/r", "name": "r", "title": "R"},
        {"type": "resource_link", "uri": "file:///etc/hosts", "name": "hosts", "description": "d"},
        {"type": "resource", "uri": "file:///a.txt", "mimeType": "text/plain", "text": "a\nb"},
        {"type": "resource", "uri": "file:///b.bin", "blobSize": 4096},
        {"type": "unknown", "originalType": "hologram", "json": {"x": 1}, "reason": "unknown"},
        {"type": "ui", "resourceUri": "ui://widget/1", "source": "meta.ui"},
        {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1]]}},
        {
            "type": "structured",
            "view": "envelope",
            "props": {"schemaVersion": "1.0", "tool": "t", "status": "ok", "summary": "s"},
        },
        {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1, 2]]}},
        {"type": "text", "text": ""},
    ],
    "notes": ["1 block for the assistant only"],
    "progress": {"progress": 3, "total": 10, "message": "copying"},
}
SEQ = "".join(f"{n}\n" for n in range(9001, 10001))


def _refusal(call_id: str, tool: str, reason: str, guard: str | None = None) -> dict[str, Any]:
    refusal: dict[str, Any] = {
        "kind": "tool-refused",
        "toolCallId": call_id,
        "toolName": tool,
        "reason": reason,
    }
    return {**refusal, "guard": guard} if guard is not None else refusal


def _summary_case() -> list[dict[str, Any]]:
    def call(n: int, tool: str) -> dict[str, Any]:
        return {"kind": "tool-call", "toolCallId": f"c{n}", "toolName": tool, "args": {}}

    def result(n: int, tool: str, is_error: bool = False) -> dict[str, Any]:
        return {
            "kind": "tool-result",
            "toolCallId": f"c{n}",
            "toolName": tool,
            "text": "x",
            "complete": True,
            "isError": is_error,
        }

    return [
        {"kind": "run-started", "runId": "r"},
        call(1, "read"),
        result(1, "read"),
        call(2, "read"),
        result(2, "read"),
        call(3, "bash"),
        result(3, "bash", is_error=True),
        call(4, "bash"),
        _refusal("c4", "bash", "destructive", "rules.toml"),
        call(5, "watch"),
    ]


INTERRUPTED = {
    "kind": "run-ended",
    "runId": "r",
    "outcome": "aborted",
    "reason": "interrupted by SIGINT",
}
ERRED = {
    "kind": "run-ended",
    "runId": "r",
    "outcome": "error",
    "reason": "TimeoutError: <b>60 s</b>",
}


def _failed_command() -> list[dict[str, Any]]:
    """A failed command as ``toolview run`` records it: stderr apart, the tool's own cut."""
    stdout = "tests/test_1.py ....\n1 failed, 12 passed\n"
    stderr = "warning: slow <test>\nerror: 1 test failed\n"
    props = {
        "command": "pytest -q",
        "exitCode": 1,
        "stdout": stdout,
        "stderr": stderr,
        "durationMs": 3400,
    }
    observations = _result(
        "shell",
        props,
        text=stdout + stderr,
        isError=True,
        truncated={"shown": 200, "total": 4200, "unit": "lines"},
    )
    observations[1] = {**observations[1], "toolName": "shell", "args": {"command": "pytest -q"}}
    observations[2] = {**observations[2], "toolName": "shell"}
    return observations


CASES.update(
    {
        "timed": [msgspec.to_builtins(o) for o in TIMED_OBSERVATIONS],
        "interrupted": [*_result(None, text=LONG, complete=False), INTERRUPTED],
        "run-reason": [*_result(None, text="", complete=False), ERRED],
        "error-failed-command": _failed_command(),
        "error-text-cut": _result(
            "pi.tool.bash",
            {},
            text="Traceback (most recent call last):\n  x\nOSError: no",
            isError=True,
            truncated={"shown": 3, "total": 4003, "unit": "lines"},
        ),
        "blocks": _result("blocks", BLOCKS),
        "refused-bare": [_refusal("c9", "write", "outside the workspace:\n  /etc/passwd")],
        "summary": _summary_case(),
        "truncated-combined": _result(
            "shell",
            {"command": "seq 10000", "exitCode": 0, "stdout": SEQ, "stderr": ""},
            truncated={"shown": 1000, "total": 10000, "unit": "lines"},
        ),
    }
)


def _boom(body: KindBody) -> str:
    raise RuntimeError("renderer bug")


def _render(case: str) -> str:
    thread = Thread.from_observations(decode_observation(json.dumps(o)) for o in CASES[case])
    registry: Registry[str] = REGISTRY.copy()
    registry.register("boom", _boom)
    limits = (
        SMALL
        if case in ("file-long", "table", "links", "truncated-combined", "interrupted", "todo-cut")
        else Limits()
    )
    return render_thread_html(thread, limits=limits, registry=registry) + "\n"


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case: str) -> None:
    path = GOLDEN / f"{case}.html"
    rendered = _render(case)
    if os.environ.get("TOOLVIEW_REGEN_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(rendered, encoding="utf-8")
    assert path.exists(), f"no golden for {case}: run with TOOLVIEW_REGEN_GOLDEN=1"
    assert rendered == path.read_text(encoding="utf-8")


def test_every_golden_has_a_case() -> None:
    assert {path.stem for path in GOLDEN.glob("*.html")} == set(CASES)
