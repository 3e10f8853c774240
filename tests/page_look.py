"""What a page's colours and width are in real Chromium: the JavaScript the look tests run.

``CONTRAST`` reads, for every element holding text, the colour Chromium
applied (``getComputedStyle``) and the background it is drawn over (the
nearest ancestor with one), and returns those whose WCAG contrast ratio is
under AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). A
colour a tool chose (a 256-colour or 24-bit foreground ``tv-f16``…, any
background ``tv-g…``, inverse ``tv-fx``) is the tool's, not the theme's, and
dim text (``opacity``) is meant to recede: those are left out. The line
number gutter (a ``::before``) is measured too.
"""

from __future__ import annotations

__all__ = ["CONTRAST", "OVERFLOW"]

CONTRAST = """() => {
  const rgb = s => { const m = s.match(/[\\d.]+/g).map(Number); return m; };
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const toolColour = el => [...el.classList].some(c => /^tv-(g\\d+|gx|fx)$/.test(c)
    || (/^tv-f\\d+$/.test(c) && Number(c.slice(4)) >= 16));
  const background = el => {
    for (let node = el; node; node = node.parentElement) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return rgb(getComputedStyle(document.documentElement).backgroundColor || 'rgb(255,255,255)');
  };
  const dimmed = el => { for (let n = el; n; n = n.parentElement) {
    if (parseFloat(getComputedStyle(n).opacity) < 1) return true; } return false; };
  const tooled = el => { for (let n = el; n; n = n.parentElement) {
    if (toolColour(n)) return true; } return false; };
  const failures = [];
  let checked = 0;
  const check = (el, colour, bg, style, what) => {
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    const r = ratio(colour, bg);
    checked += 1;
    if (colour.length > 3 && colour[3] < 1) failures.push({what, why: 'translucent text'});
    else if (r < need) failures.push({what, colour: style.color, r: r.toFixed(2), need});
  };
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.data.trim());
    if (!own || !el.getClientRects().length || dimmed(el) || tooled(el)) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const name = el.tagName + '.' + [...el.classList].join('.');
    check(el, rgb(style.color), background(el), style,
          name + ' ' + el.textContent.trim().slice(0, 30));
  }
  for (const pre of document.querySelectorAll('pre.tv-code')) {
    const gutter = getComputedStyle(pre, '::before');
    check(pre, rgb(gutter.color), background(pre), gutter, 'gutter of ' + pre.className);
  }
  return {checked, failures,
          scheme: getComputedStyle(document.body).backgroundColor};
}"""

OVERFLOW = """() => {
  // the page must not scroll sideways, and no text may run past its right edge outside a
  // box that scrolls (a table's wrapper, a <pre>): that text would be cut off, unreachable
  const root = document.scrollingElement;
  const wide = [...document.querySelectorAll('.tv-table-wrap, pre, .tv-code > code')]
    .filter(el => el.scrollWidth > el.clientWidth + 1).length;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const sticking = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim() || node.parentElement.closest('.tv-table-wrap, pre')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.width && rect.right > root.clientWidth + 1) sticking.push(node.data.slice(0, 40));
  }
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide,
          sticking: sticking.slice(0, 5)};
}"""
