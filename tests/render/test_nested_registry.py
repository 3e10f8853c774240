"""Inside a ``blocks`` result, structured content is rendered by the caller's registry.

A user who overrides a kind (a ``table`` of their own) must see it used one
level down too, on every surface: a registry passed to ``render_thread`` (or
``render_page``), and the surface's own ``REGISTRY`` changed by ``register``
(which is what a notebook renders with).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from render_samples import call_thread

from toolview.contract import Thread
from toolview.render import KindBody, Registry
from toolview.render import html as html_surface
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.notebook import NotebookThread

MARK = "my own table of 1 rows"


def _mine(body: KindBody) -> str:
    return f"{MARK} ({body.kind})"


def _boom(body: KindBody) -> Any:
    raise RuntimeError("bug")


# Each surface: its module, how it renders a thread with a registry, and the
# override in that surface's output type.
SURFACES: dict[str, tuple[Any, Callable[[Thread, Any], str], Callable[[KindBody], Any]]] = {
    "text": (
        text_surface,
        lambda thread, registry: text_surface.render_thread(thread, registry=registry),
        lambda body: [_mine(body)],
    ),
    "markdown": (
        markdown_surface,
        lambda thread, registry: markdown_surface.render_thread(thread, registry=registry),
        lambda body: [_mine(body)],
    ),
    "terminal": (
        terminal_surface,
        lambda thread, registry: terminal_surface.render_thread(
            thread, width=200, registry=registry
        ),
        _mine,
    ),
    "html": (
        html_surface,
        lambda thread, registry: html_surface.render_page(thread, registry=registry),
        lambda body: f"<p>{_mine(body)}</p>",
    ),
}


def blocks_thread(*blocks: dict[str, Any]) -> Thread:
    return call_thread(tool="mcp", text="the text", kind="blocks", props={"blocks": list(blocks)})


TABLE = {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1]]}}
JSON = {"type": "structured", "view": "json", "props": {"value": {"k": "v"}}}


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_an_override_passed_in_is_used_inside_a_blocks_result(surface: str) -> None:
    module, render, mine = SURFACES[surface]
    registry: Registry[Any] = module.REGISTRY.copy()
    registry.register("table", mine)
    output = render(blocks_thread(TABLE, JSON), registry)
    assert f"{MARK} (table)" in output
    assert "k" in output and "v" in output  # the json view is still the surface's own
    assert MARK not in render(blocks_thread(TABLE), None)  # the surface's own is untouched


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_an_override_that_fails_inside_a_blocks_result_shows_its_json(surface: str) -> None:
    module, render, _ = SURFACES[surface]
    registry: Registry[Any] = module.REGISTRY.copy()
    registry.register("table", _boom)
    output = render(blocks_thread(TABLE), registry)
    failed = "the renderer for kind 'table' failed (RuntimeError); showing its JSON"
    assert failed in output.replace("&#x27;", "'").replace("\\'", "'")
    assert "columns" in output


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_view_the_registry_lacks_shows_its_json_noted(surface: str) -> None:
    module, render, _ = SURFACES[surface]
    registry: Registry[Any] = module.REGISTRY.copy()
    registry.unregister("table")
    output = render(blocks_thread(TABLE), registry).replace("&#x27;", "'").replace("\\'", "'")
    assert "no renderer for kind 'table'; showing its JSON" in output
    assert "columns" in output


@pytest.fixture
def registered() -> Iterator[None]:
    """``table`` overridden on the text, Markdown and HTML surfaces for everyone."""
    surfaces = ("text", "markdown", "html")
    previous = {name: SURFACES[name][0].register("table", SURFACES[name][2]) for name in surfaces}
    try:
        yield
    finally:
        for name, renderer in previous.items():
            SURFACES[name][0].register("table", renderer)


def test_a_notebook_uses_the_registered_override_inside_a_blocks_result(
    registered: None,
) -> None:
    bundle = NotebookThread(blocks_thread(TABLE))._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "text/markdown"}
    for mime, shown in bundle.items():
        assert f"{MARK} (table)" in shown, mime
