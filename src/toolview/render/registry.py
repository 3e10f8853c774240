"""A per-surface registry of renderers keyed by kind, with failures contained.

IPython's formatters are the precedent: ``register`` returns what it replaced,
looking up an absent kind is not an error, and a renderer that raises never
blanks the result — the caller gets the surface's fallback with a note.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Generic, TypeVar

from toolview.render.clean import clean_field
from toolview.render.view import ErrorBody, FallbackBody, KindBody, fallback_for

__all__ = ["Registry", "Renderer"]

R = TypeVar("R")
Renderer = Callable[[KindBody], R]


class Registry(Generic[R]):
    """Renderers of one surface, each producing that surface's output type ``R``."""

    def __init__(self, renderers: Mapping[str, Renderer[R]] | None = None) -> None:
        self._renderers: dict[str, Renderer[R]] = dict(renderers or {})

    def register(self, kind: str, renderer: Renderer[R]) -> Renderer[R] | None:
        """Use ``renderer`` for ``kind``; return the renderer it replaced, or ``None``."""
        if not isinstance(kind, str) or not kind:
            raise ValueError("kind must be a non-empty string")
        previous = self._renderers.get(kind)
        self._renderers[kind] = renderer
        return previous

    def unregister(self, kind: str) -> Renderer[R] | None:
        """Stop rendering ``kind``; return the renderer removed, or ``None``."""
        return self._renderers.pop(kind, None)

    def lookup(self, kind: str) -> Renderer[R] | None:
        """The renderer for ``kind``, or ``None`` when the surface has none."""
        return self._renderers.get(kind)

    def __contains__(self, kind: object) -> bool:
        return kind in self._renderers

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._renderers))

    def copy(self) -> Registry[R]:
        """An independent registry with the same renderers (for a customised surface)."""
        return Registry(self._renderers)

    def render(self, body: KindBody, fallback: Callable[[FallbackBody], R]) -> R:
        """Render ``body`` with its kind's renderer, or ``fallback`` with a note saying why.

        The renderer is handed the body with ``registry`` set to this one, so the
        kinds nested in its content are rendered by the same renderers.
        """
        renderer = self._renderers.get(body.kind)
        if renderer is None:
            kind = clean_field(body.kind, 200)  # cleaned only when it is shown
            return fallback(fallback_for(body, f"no renderer for kind '{kind}'"))
        try:
            return renderer(body if body.registry is self else replace(body, registry=self))
        except Exception as exc:
            kind = clean_field(body.kind, 200)
            note = f"the renderer for kind '{kind}' failed ({type(exc).__name__})"
            return fallback(fallback_for(body, note))

    def render_error(
        self,
        body: ErrorBody,
        message: Callable[[ErrorBody, str | None], R],
        lead: Callable[[R, R], R],
    ) -> R:
        """An error's body: its kind's renderer inside the error frame, else ``message``.

        ``message(error, note)`` draws an error's own text; ``note`` says why the
        kind was not drawn when its renderer failed. A kind this surface has no
        renderer for shows the error's text with no note: an unknown kind's
        error reads as any other error. ``lead(said, drawn)`` puts the error's
        text before the drawn kind, asked only when ``body.lead`` and the kind
        was drawn (a fallback already shows the text: it is never said twice);
        that text is drawn without the truncation notice, here for every
        surface, as the kind body says what was cut.
        """
        if body.kind is None or body.kind.kind not in self._renderers:
            return message(body, None)
        fell_back: list[bool] = []

        def fallback(shown: FallbackBody) -> R:
            fell_back.append(True)
            return message(body, shown.note)

        drawn = self.render(body.kind, fallback)
        if not body.lead or fell_back:
            return drawn
        return lead(message(replace(body, truncated=None), None), drawn)
