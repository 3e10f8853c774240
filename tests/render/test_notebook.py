"""Notebook display: every MIME type present, filtered as asked, failures contained."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from render_samples import CASES

from toolview.contract import ToolResult, decode_observation
from toolview.contract.thread import Thread
from toolview.render import notebook
from toolview.render.notebook import MIME_TYPES, NotebookCall, NotebookThread

EXAMPLE = Path(__file__).parents[2] / "examples" / "thread.jsonl"


@pytest.fixture(scope="module")
def thread() -> Thread:
    lines = EXAMPLE.read_bytes().splitlines()
    return Thread.from_observations(decode_observation(line) for line in lines if line.strip())


def test_thread_bundle_has_every_surface(thread: Thread) -> None:
    bundle = NotebookThread(thread)._repr_mimebundle_()
    assert set(bundle) == set(MIME_TYPES)
    assert "ls -la src" in bundle["text/plain"]
    assert "\x1b" not in bundle["text/plain"]
    assert 'class="tv-thread"' in bundle["text/html"]
    assert "ls -la src" in bundle["text/markdown"]


def test_an_interrupted_call_keeps_its_output_and_reason_in_every_mime_type() -> None:
    thread = CASES["interrupted"]()
    bundle = NotebookThread(thread)._repr_mimebundle_()
    call = NotebookCall(thread.calls()[0], thread)._repr_mimebundle_()
    for shown in [*bundle.values(), *call.values()]:
        assert shown.index("tick1") < shown.index("tick2") < shown.index("stopped after 2 lines")
        assert "interrupted by SIGINT" in shown


def test_html_bundle_is_scoped_and_inert(thread: Thread) -> None:
    html = NotebookThread(thread)._repr_mimebundle_()["text/html"]
    assert html.count("<style>") == 1
    assert "<script" not in html.lower()
    assert re.search(r"\son[a-z]+\s*=", html) is None
    assert re.search(r"\sstyle\s*=", html) is None
    style = html.split("<style>", 1)[1].split("</style>", 1)[0]
    rules = re.findall(r"(?:^|})\s*([^{}@]+?)\s*{([^{}]*)}", style)
    assert rules
    for selector, body in rules:  # outside a tv- class: only the theme's --tv- properties
        if ".tv-" not in selector and not selector.startswith(("from", "to")):
            declarations = [d.strip() for d in body.split(";") if d.strip()]
            assert all(d.startswith("--tv-") for d in declarations), selector


def test_include_and_exclude_are_honoured(thread: Thread) -> None:
    view = NotebookThread(thread)
    assert set(view._repr_mimebundle_(include={"text/plain"})) == {"text/plain"}
    assert set(view._repr_mimebundle_(exclude={"text/html"})) == {"text/plain", "text/markdown"}


def test_each_call_displays_alone(thread: Thread) -> None:
    calls = NotebookThread(thread).calls()
    assert len(calls) == len(thread.calls())
    pending_call = next(
        c for c in calls if isinstance(c.entry.result, ToolResult) and not c.entry.result.complete
    )
    pending = pending_call._repr_mimebundle_()
    assert 'data-state="pending"' in pending["text/html"]
    assert "running" in pending["text/plain"].lower()
    first = NotebookCall(thread.calls()[0], thread)._repr_mimebundle_()
    assert 'id="tv-call-c1"' in first["text/html"]


def test_a_failing_surface_never_blanks_the_others(
    thread: Thread, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("surface bug")

    monkeypatch.setattr(notebook, "render_thread_html", broken)
    bundle = NotebookThread(thread)._repr_mimebundle_()
    assert bundle["text/html"] == "[toolview: the text/html view failed (RuntimeError)]"
    assert "ls -la src" in bundle["text/plain"]
    assert "ls -la src" in bundle["text/markdown"]


IPYTHON_SESSION = """
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

shell = InteractiveShell.instance()
shell.run_cell("from toolview.contract import Thread, ToolCall, ToolResult")
shell.run_cell(
    "thread = Thread.from_observations("
    "[ToolCall('c1', 'bash', {}), ToolResult('c1', 'bash', 'hello', True, False)])"
)
before, _ = shell.display_formatter.format(shell.user_ns["thread"])
shell.run_cell(sys.argv[1])
after, _ = shell.display_formatter.format(shell.user_ns["thread"])  # a cell ending in `thread`
with capture_output() as captured:
    shell.run_cell("from IPython.display import display; display(thread)")
print(json.dumps({"before": before, "after": after, "shown": [o.data for o in captured.outputs]}))
"""


@pytest.mark.parametrize(
    "setup", ["import toolview.render.notebook", "%load_ext toolview.render.notebook"]
)
def test_a_bare_thread_displays_itself_in_a_real_ipython(setup: str, tmp_path: Path) -> None:
    """IPython's own display machinery (what ipykernel runs), in a process of its own."""
    pytest.importorskip("IPython")
    env = {**os.environ, "IPYTHONDIR": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", IPYTHON_SESSION, setup],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    seen = json.loads(run.stdout.splitlines()[-1])
    assert set(seen["before"]) == {"text/plain"}  # only the dataclass repr: nothing registered yet
    assert set(seen["after"]) == set(MIME_TYPES)
    assert seen["after"]["text/plain"] == "✓ bash — Success\n  hello\n"
    assert 'class="tv-thread"' in seen["after"]["text/html"]
    assert seen["shown"] == [seen["after"]]


def test_without_ipython_running_nothing_is_registered() -> None:
    assert notebook.register_ipython() is False
