"""What a page did in real Chromium: the report the html tests assert on.

``PageReport`` gathers everything a hostile payload could do if it ran —
dialogs, console messages, requests that leave the page, ``window.__pwned``
markers — and what the DOM holds after (scripts, ``on*`` attributes, non-http
links, embedding elements). ``assert_inert`` is the one safety verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Grace period after "load" for async handlers (onerror, animations) to fire.
SETTLE_MS = 300

# Runs in the page via the DevTools protocol (not subject to the page's CSP).
_INSPECT_DOM = """() => {
  const all = [...document.querySelectorAll('*')];
  const handlers = [];
  for (const el of all) {
    for (const attr of el.attributes) {
      if (attr.name.toLowerCase().startsWith('on')) handlers.push(el.tagName + ' ' + attr.name);
    }
  }
  const urls = [];
  for (const el of document.querySelectorAll('[href],[src],[action],[formaction],[srcset]')) {
    for (const name of ['href', 'src', 'action', 'formaction', 'srcset']) {
      const value = el.getAttribute(name);
      if (value !== null) urls.push(el.tagName + ' ' + name + '=' + value);
    }
  }
  const embeds = [...document.body.querySelectorAll(
    'iframe,frame,object,embed,applet,base,form,portal,link,style,svg script,math'
  )].map(el => el.tagName);
  const metas = [...document.querySelectorAll('meta[http-equiv]')].map(
    el => el.getAttribute('http-equiv') + ': ' + el.getAttribute('content'));
  // a text as read aloud (what is aria-hidden left out) or as seen (screen-reader text left out)
  const textBut = (el, selector) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll(selector).forEach(part => part.remove());
    return copy.textContent;
  };
  return {
    statuses: [...document.querySelectorAll('.tv-status')].map(
      el => [el.textContent, textBut(el, '[aria-hidden=true]').trim()]),
    liveRegions: document.querySelectorAll('[role=status],[role=alert],[aria-live]').length,
    images: document.querySelectorAll('img').length,
    details: document.querySelectorAll('details').length,
    links: [...document.querySelectorAll('a[href]:not(.tv-permalink)')].map(
      el => el.getAttribute('href')),
    permalinks: [...document.querySelectorAll('a.tv-permalink')].map(el => el.getAttribute('href')),
    scripts: document.querySelectorAll('script').length,
    handlers, urls, embeds, metas,
    receipts: [...document.querySelectorAll('.tv-receipt')].map(el => ({
      label: textBut(el, '[aria-hidden=true]'), text: textBut(el, '.tv-sr'),
      lines: Math.round((el.getBoundingClientRect().height
        - parseFloat(getComputedStyle(el).paddingTop)
        - parseFloat(getComputedStyle(el).paddingBottom))
        / parseFloat(getComputedStyle(el).lineHeight))})),
    summary: (() => {
      const el = document.querySelector('.tv-summary');
      if (!el) return null;
      const bottoms = [...el.parentElement.children].filter(c => c !== el).map(
        c => c.getBoundingClientRect().bottom);
      return {text: el.textContent,
              last: el.getBoundingClientRect().top >= Math.max(0, ...bottoms) - 1};
    })(),
    pwned: typeof window.__pwned !== 'undefined' || typeof window.parent.__pwned !== 'undefined',
    frames: window.frames.length,
  };
}"""


@dataclass
class PageReport:
    """What happened while a page was open, and what its DOM held after."""

    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dom: dict[str, Any] = field(default_factory=dict)

    @property
    def csp_violations(self) -> list[str]:
        """Console reports of blocked content: toolview must emit none at all."""
        return [line for line in self.console if "Content Security Policy" in line]

    def assert_inert(self) -> None:
        """Nothing ran, nothing left the page, nothing executable is in the DOM."""
        assert self.dialogs == [], f"a dialog opened: {self.dialogs}"
        assert not [line for line in self.console if "pwned" in line.lower()], self.console
        assert self.requests == [], f"requests left the page: {self.requests[:5]}"
        assert self.dom["pwned"] is False, "window.__pwned was set"
        assert self.dom["scripts"] == 0, "a <script> element is in the DOM"
        assert self.dom["handlers"] == [], f"on* attributes: {self.dom['handlers'][:5]}"
        assert self.dom["frames"] == 0, "a frame is in the DOM"
        assert self.dom["embeds"] == [], f"embedding elements: {self.dom['embeds'][:5]}"
        bad_urls = [url for url in self.dom["urls"] if not _allowed_url(url)]
        assert bad_urls == [], f"non-http URLs in the DOM: {bad_urls[:5]}"


def _allowed_url(entry: str) -> bool:
    """An ``<a href>`` may be http(s) or an in-page anchor; an ``<img src>`` only data:."""
    tag, _, rest = entry.partition(" ")
    name, _, value = rest.partition("=")
    if tag == "A" and name == "href":
        return value.startswith(("http://", "https://", "#"))
    if tag == "IMG" and name == "src":
        return value.startswith("data:image/")
    return False


OpenHtml = Callable[..., PageReport]


def inspect_page(page: Any) -> dict[str, Any]:
    """Let async handlers settle, then read the DOM through the DevTools protocol."""
    page.wait_for_timeout(SETTLE_MS)
    result: dict[str, Any] = page.evaluate(_INSPECT_DOM)
    return result
