// toolview live page: the per-call action menu (issue 24), as the WAI-ARIA menu button pattern.
// viewer.js draws each call's "⋯" button (aria-haspopup="menu", aria-controls naming its
// menu) and the menu (role="menu", items role="menuitem"); this file only opens, moves and
// closes, so any menu drawn the same way behaves the same. Enter, Space or ArrowDown on the
// button open it on the first item, ArrowUp on the last; arrows, Home and End move; Escape
// closes and gives the focus back to the button; Tab, a click elsewhere or choosing an item
// closes it. One menu is open at a time. Served as a file: the CSP allows no inline script.
"use strict";
(() => {
  const OPENER = "button.tv-menu-button[aria-controls]";
  let open = null; // { opener, menu } of the menu open now

  const menuOf = (opener) => document.getElementById(opener.getAttribute("aria-controls"));
  const items = (menu) => [...menu.querySelectorAll('[role="menuitem"]:not([hidden])')];

  function close(giveFocusBack) {
    if (!open) return;
    const { opener, menu } = open;
    open = null;
    const focusInside = menu.contains(document.activeElement);
    menu.hidden = true;
    opener.setAttribute("aria-expanded", "false");
    if (giveFocusBack || focusInside) opener.focus(); // never leave the focus on nothing
  }

  function show(opener, which) {
    const menu = menuOf(opener);
    if (!menu) return;
    if (open && open.opener !== opener) close(false);
    open = { opener, menu };
    menu.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    const list = items(menu);
    list.at(which === "last" ? -1 : 0)?.focus();
  }

  function step(menu, by, to) {
    const list = items(menu);
    if (!list.length) return;
    const here = list.indexOf(document.activeElement);
    const next = to === "first" ? 0 : to === "last" ? list.length - 1 : here + by;
    list[(next + list.length) % list.length].focus();
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const opener = target?.closest(OPENER);
    if (opener) {
      if (open && open.opener === opener) close(true);
      else show(opener, "first");
      return;
    }
    const item = target?.closest('[role="menuitem"]');
    if (open && item && open.menu.contains(item)) close(true);
    else if (open && !open.menu.contains(target)) close(false);
  });

  const OPENING = { Enter: "first", " ": "first", ArrowDown: "first", ArrowUp: "last" };
  const MOVES = { ArrowDown: [1], ArrowUp: [-1], Home: [0, "first"], End: [0, "last"] };

  // capture: the page's own keys (j/k, Enter opening a call) never see a key the menu takes
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      const opener = target?.closest(OPENER);
      if (opener && OPENING[event.key]) {
        event.preventDefault();
        event.stopPropagation();
        show(opener, OPENING[event.key]);
        return;
      }
      if (!open || !open.menu.contains(target)) return;
      if (event.key === "Escape") close(true);
      else if (event.key === "Tab") close(false);
      else if (MOVES[event.key]) step(open.menu, ...MOVES[event.key]);
      else return;
      if (event.key !== "Tab") {
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true,
  );

  document.addEventListener("focusout", (event) => {
    // the focus went somewhere neither the menu nor its button (a pointer, a page key)
    if (!open) return;
    const to = event.relatedTarget;
    if (to instanceof Node && (open.menu.contains(to) || open.opener.contains(to))) return;
    if (to === null) return; // a click on nothing focusable: the click handler decides
    close(false);
  });
})();
