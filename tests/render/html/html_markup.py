"""Read back what the html surface emitted with the stdlib parser.

A fast, browser-free first check (the Chromium tests are the real one): every
tag and attribute toolview's output holds, so tests can assert that no
script, event handler, ``style`` attribute or non-http link is in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Every tag the html surface (and the sanitized Markdown inside it) may emit.
_TAG_NAMES = (
    "html head meta title style body main h1 h2 h3 h4 h5 h6 div span section article header "
    "p pre code a ul ol li table thead tbody tr th td details summary figure figcaption img "
    "strong em b i del br hr blockquote footer time input label nav"
)
ALLOWED_TAGS = frozenset(_TAG_NAMES.split())
# A call's permalink: a link within the page to a call's own id, nothing else.
_PERMALINK = re.compile(r"#tv-(?:sub)?call-[A-Za-z0-9_-]+")
# A link between the pages of one split page: a sibling file's name, nothing else.
_PAGE_LINK = re.compile(r"[A-Za-z0-9._%-]+\.html")


@dataclass
class Markup(HTMLParser):
    """Tags and attributes, in document order."""

    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def problems(self) -> list[str]:
        """Everything executable, styled inline, unknown or off-policy in the markup."""
        found: list[str] = []
        for tag, attrs in self.tags:
            if tag not in ALLOWED_TAGS:
                found.append(f"tag <{tag}>")
            if tag == "input" and attrs.get("type") != "checkbox":
                found.append(f"<input type={attrs.get('type')!r}>")
            if _is_permalink(tag, attrs):
                continue
            for name, value in attrs.items():
                if name.startswith("on") or name in ("style", "srcdoc", "formaction"):
                    found.append(f"<{tag} {name}>")
                if name == "href" and not (value or "").startswith(("http://", "https://")):
                    found.append(f"<{tag} href={value!r}>")
                if name == "src" and not (value or "").startswith("data:image/"):
                    found.append(f"<{tag} src={value!r}>")
            if tag == "a" and attrs.get("rel") != "nofollow noopener noreferrer":
                found.append(f"<a rel={attrs.get('rel')!r}>")
        return found


def _is_permalink(tag: str, attrs: dict[str, str | None]) -> bool:
    """A call's permalink (``<a class="tv-permalink" href="#tv-call-…">``, its label) or a link
    to a sibling page (``<a class="tv-page-link" href="NAME-2.html">``): no other attribute."""
    if tag != "a":
        return False
    href = attrs.get("href") or ""
    if attrs.get("class") == "tv-permalink":
        return _PERMALINK.fullmatch(href) is not None and set(attrs) == {
            "class",
            "href",
            "aria-label",
        }
    if attrs.get("class") == "tv-page-link":
        return _PAGE_LINK.fullmatch(href) is not None and set(attrs) <= {
            "class",
            "href",
            "aria-current",
        }
    return False


def parse(html: str) -> Markup:
    """The tags and attributes of ``html``."""
    markup = Markup()
    markup.feed(html)
    markup.close()
    return markup
