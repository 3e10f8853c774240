// toolview viewer: the live page's interactive layer (issue 15). Search with highlights,
// filter chips kept in the URL, expand/collapse all, per-call actions (one "⋯" menu, static/menu.js), "show more"
// of a cut output, the raw observations, the theme toggle, keys and relative times.
// Served as a file (the CSP allows no inline script). Everything drawn from data is
// built with DOM APIs and text nodes, never markup. It works on the calls present when
// the page loads and on those live.js inserts later: live.js dispatches
// `tv:calls-changed` on #tv-live, and everything here is re-applied then.
// One polite live region only: announcements go to the status line (#tv-status).
"use strict";
(() => {
  const root = document.getElementById("tv-live");
  const toolbar = document.querySelector(".tv-toolbar");
  if (!root || !toolbar) return;
  const base = `/api/threads/${encodeURIComponent(root.dataset.thread || "")}`;
  const statusLine = document.getElementById("tv-status");
  const CALL = "article.tv-call";
  const MAX_MARKS = 5000; // highlights kept in the page; the count says when there were more
  const CHUNK = 65536; // characters asked for per "show more"
  const COPY_LIMIT = 5_000_000; // characters fetched for "copy output" at most
  const searchInput = document.getElementById("tv-search-input");
  const regexBox = document.getElementById("tv-search-regex");
  const countLine = document.getElementById("tv-search-count");
  const filterBar = toolbar.querySelector(".tv-filters");
  const keysDialog = document.getElementById("tv-keys");
  const themeSelect = document.getElementById("tv-theme");

  // ---------------------------------------------------------------- helpers
  function announce(text) {
    if (statusLine) statusLine.textContent = text;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(label, action) {
    const node = element("button", "tv-tool-button", label);
    node.type = "button";
    node.dataset.tvAction = action;
    return node;
  }

  function ownerCall(node) {
    return node instanceof Element ? node.closest(CALL) : node.parentElement?.closest(CALL);
  }

  function own(article, selector) {
    // the first element matching `selector` that belongs to this call, not a nested one
    for (const node of article.querySelectorAll(selector)) {
      if (ownerCall(node) === article) return node;
    }
    return null;
  }

  function topCalls() {
    return [...root.querySelectorAll(CALL)].filter((a) => !a.parentElement.closest(CALL));
  }

  function callId(article) {
    // the id as it crossed (call_element_id spells it `_hex_`); a hashed id has none
    if (article.dataset.callId) return article.dataset.callId;
    const spelled = article.id.replace(/^tv-call-/, "");
    if (/^h-[0-9a-f]{32}$/.test(spelled)) return null;
    return spelled.replace(/_([0-9a-f]{1,6})_/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)));
  }

  async function getJson(path, signal) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store", signal });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const reason = body && typeof body.error === "string" ? body.error : `HTTP ${response.status}`;
      throw new Error(reason);
    }
    return body;
  }

  function typing(target) {
    if (!(target instanceof Element)) return false;
    if (target.isContentEditable || target.closest("textarea, select")) return true;
    return target.localName === "input" && !["checkbox", "radio", "button"].includes(target.type);
  }

  // ---------------------------------------------------------------- theme
  const THEME_KEY = "toolview.theme";
  function applyTheme(value) {
    if (value === "light" || value === "dark") document.documentElement.dataset.theme = value;
    else delete document.documentElement.dataset.theme;
  }
  function storedTheme() {
    try {
      return localStorage.getItem(THEME_KEY) || "system";
    } catch {
      return "system"; // storage refused (a privacy setting): the system's scheme
    }
  }
  themeSelect.value = storedTheme();
  applyTheme(themeSelect.value);
  themeSelect.addEventListener("change", () => {
    try {
      localStorage.setItem(THEME_KEY, themeSelect.value);
    } catch {
      // not remembered, still applied
    }
    applyTheme(themeSelect.value);
  });

  // ---------------------------------------------------------------- relative times
  const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const absoluteFormat = new Intl.DateTimeFormat(undefined, {
    // dateStyle cannot be combined with timeZoneName: the fields, one by one
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
  });
  const UNITS = [
    ["year", 31536000],
    ["month", 2592000],
    ["week", 604800],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
    ["second", 1],
  ];
  function relativeText(when) {
    const seconds = Math.round((when - Date.now()) / 1000);
    if (Math.abs(seconds) < 45) return relativeFormat.format(0, "second");
    for (const [unit, size] of UNITS) {
      if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
    }
    return relativeFormat.format(seconds, "second");
  }
  function refreshTimes() {
    for (const time of document.querySelectorAll("time.tv-time[datetime]")) {
      const when = Date.parse(time.getAttribute("datetime"));
      if (Number.isNaN(when)) continue; // not a time: left as the server wrote it
      time.textContent = relativeText(when);
      time.title = absoluteFormat.format(when);
    }
  }
  setInterval(refreshTimes, 60_000);

  // ---------------------------------------------------------------- expand / collapse
  function callDetails() {
    return root.querySelectorAll("details.tv-call-details");
  }
  function setAllOpen(open) {
    let count = 0;
    for (const details of callDetails()) {
      if (details.closest("[hidden]")) continue;
      details.open = open;
      count += 1;
    }
    announce(`${count} call${count === 1 ? "" : "s"} ${open ? "expanded" : "collapsed"}`);
  }

  // ---------------------------------------------------------------- per-call tools
  function decorate(article) {
    if (own(article, ".tv-call-tools")) return;
    const details = own(article, "details.tv-call-details");
    if (details && !details.open) return; // built when first opened: a long thread stays light
    const tools = element("div", "tv-call-tools");
    const [opener, menu] = actionMenu(article);
    tools.append(opener, menu);
    if (callId(article) !== null) {
      const raw = element("details", "tv-raw");
      raw.hidden = true; // until "Raw observations" is chosen in the menu
      raw.append(element("summary", "", "Raw observations"), element("pre", "tv-raw-json"));
      tools.append(raw);
    }
    const body = details || article;
    body.append(tools);
    reachable(article);
    for (const cut of article.querySelectorAll("details.tv-trunc")) {
      if (ownerCall(cut) !== article || cut.nextElementSibling?.classList.contains("tv-more")) {
        continue;
      }
      const more = button("Show more", "show-more");
      more.classList.add("tv-more");
      cut.after(more);
    }
  }

  function actionMenu(article) {
    // every action of the call behind one "⋯" button (static/menu.js opens and moves it)
    const menu = element("div", "tv-menu");
    menu.id = `${article.id}-actions`;
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-label", "Call actions");
    menu.hidden = true;
    const item = (label, action) => {
      const node = button(label, action);
      node.className = "tv-menu-item";
      node.setAttribute("role", "menuitem");
      node.tabIndex = -1;
      menu.append(node);
    };
    if (own(article, ".tv-args")) item("Copy args", "copy-args");
    if (commandOf(article)) item("Copy command", "copy-command");
    if (own(article, ".tv-body")) item("Copy output", "copy-output");
    item("Copy link", "copy-link");
    if (article.dataset.stored && callId(article) !== null) item("Load full output", "load-full");
    if (callId(article) !== null) item("Raw observations", "show-raw");
    const opener = element("button", "tv-menu-button", "\u22EF");
    opener.type = "button";
    opener.setAttribute("aria-label", "Call actions");
    opener.setAttribute("aria-haspopup", "menu");
    opener.setAttribute("aria-expanded", "false");
    opener.setAttribute("aria-controls", menu.id);
    return [opener, menu];
  }

  function showRaw(article) {
    const raw = own(article, "details.tv-raw");
    if (!raw) return;
    raw.hidden = false;
    raw.open = true; // its toggle fetches the observations
    raw.querySelector("summary").focus();
  }

  const SCROLLERS = ".tv-scroll-end, .tv-pre, .tv-table-wrap, .tv-code > code, .tv-markdown pre";

  function reachable(article) {
    // a block that scrolls inside its card takes the focus, so keys can scroll it
    for (const block of article.querySelectorAll(SCROLLERS)) {
      if (ownerCall(block) !== article || block.hasAttribute("tabindex")) continue;
      const scrolls =
        block.scrollHeight > block.clientHeight + 1 || block.scrollWidth > block.clientWidth + 1;
      if (!scrolls) continue;
      block.tabIndex = 0;
      block.setAttribute("role", "region");
      block.setAttribute("aria-label", "scrollable output");
    }
  }

  function commandOf(article) {
    // the args' command in full when they parse; else the shell line the page shows
    const args = own(article, ".tv-args");
    try {
      const parsed = args ? JSON.parse(args.textContent) : null;
      if (parsed && typeof parsed.command === "string") return parsed.command;
    } catch {
      // args cut or not JSON: the shown line
    }
    const shown = own(article, ".tv-command");
    const text = shown ? shown.textContent : "";
    return text.startsWith("$ ") ? text.slice(2) : "";
  }

  function domOutput(article) {
    const body = own(article, ".tv-body");
    if (!body) return "";
    const blocks = [...body.querySelectorAll("pre")].filter((pre) => ownerCall(pre) === article);
    return (blocks.length ? blocks : [body]).map((node) => node.textContent).join("\n");
  }

  async function wholeText(article, route) {
    // the whole redacted output from `route` (the log's /output, a stored file's /stored),
    // chunk by chunk, up to COPY_LIMIT characters
    const path = `${base}/calls/${encodeURIComponent(callId(article))}/${route}`;
    let text = "";
    let offset = 0;
    while (offset !== null && text.length < COPY_LIMIT) {
      const chunk = await getJson(`${path}?offset=${offset}&limit=${CHUNK * 8}`);
      text += chunk.text;
      offset = typeof chunk.next === "number" && chunk.next > offset ? chunk.next : null;
    }
    return text;
  }

  async function fullOutput(article) {
    // the whole redacted output from the log; the page's text if it has none
    if (callId(article) === null) return domOutput(article);
    try {
      return await wholeText(article, "output");
    } catch {
      return domOutput(article);
    }
  }

  async function loadFull(article) {
    // an output stored apart: from the log when it holds it whole, else from its file
    if (callId(article) === null) return;
    const tools = own(article, ".tv-call-tools");
    let shown = own(article, ".tv-full-output");
    if (!shown) {
      shown = element("pre", "tv-full-output");
      shown.tabIndex = 0;
      shown.setAttribute("role", "region");
      shown.setAttribute("aria-label", "Full output");
      tools.append(shown);
    }
    announce("Loading the full output");
    try {
      const route = article.dataset.stored === "whole" ? "output" : "stored";
      shown.textContent = await wholeText(article, route);
      announce(`Loaded the full output: ${shown.textContent.length.toLocaleString()} characters`);
      shown.focus();
    } catch (error) {
      shown.textContent = `Could not load the full output: ${error.message}`;
      announce(shown.textContent);
    }
  }

  async function copy(text, what, near) {
    try {
      await navigator.clipboard.writeText(text);
      announce(`Copied ${what}`);
    } catch {
      // no clipboard (an insecure origin, a refused permission): the text, selected, after
      // the menu the action was chosen in (which closes), else after the button
      const anchor = near.closest(".tv-menu") || near;
      anchor.parentElement.querySelector(".tv-copy-fallback")?.remove();
      const area = element("textarea", "tv-copy-fallback");
      area.readOnly = true;
      area.value = text;
      area.setAttribute("aria-label", `${what} to copy`);
      anchor.after(area);
      area.focus();
      area.select();
      announce(`Copying ${what} was refused: the text is selected, copy it with Ctrl+C`);
    }
  }

  function permalink(article) {
    const url = new URL(window.location.href);
    url.hash = article.id;
    return url.href;
  }

  async function showMore(more) {
    const article = ownerCall(more);
    const id = article && callId(article);
    if (id === null || !article) return;
    let pre = more.nextElementSibling;
    if (!pre?.classList.contains("tv-more-output")) {
      pre = element("pre", "tv-more-output");
      pre.dataset.offset = more.previousElementSibling?.dataset.offset || "0";
      more.after(pre);
    }
    more.disabled = true;
    try {
      const path = `${base}/calls/${encodeURIComponent(id)}/output`;
      const chunk = await getJson(`${path}?offset=${pre.dataset.offset}&limit=${CHUNK}`);
      pre.append(document.createTextNode(chunk.text));
      if (typeof chunk.next === "number") {
        pre.dataset.offset = String(chunk.next);
        more.disabled = false;
        const total = Number(chunk.total).toLocaleString();
        announce(`Showing ${chunk.next.toLocaleString()} of ${total} characters`);
      } else {
        more.remove();
        announce("Showing the whole output");
      }
    } catch (error) {
      more.disabled = false;
      announce(`Could not fetch more: ${error.message}`);
    }
  }

  async function loadRaw(raw) {
    const pre = raw.querySelector(".tv-raw-json");
    if (!pre || pre.dataset.loaded) return;
    pre.dataset.loaded = "1";
    const id = callId(ownerCall(raw));
    try {
      const data = await getJson(`${base}/calls/${encodeURIComponent(id)}/raw`);
      pre.textContent = JSON.stringify(data, null, 2);
    } catch (error) {
      delete pre.dataset.loaded;
      pre.textContent = `Could not fetch the raw observations: ${error.message}`;
    }
  }

  root.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("button") : null;
    const article = target && ownerCall(target);
    if (!target || !article || !target.dataset.tvAction) return;
    const action = target.dataset.tvAction;
    if (action === "copy-args") copy(own(article, ".tv-args").textContent, "args", target);
    else if (action === "copy-command") copy(commandOf(article), "command", target);
    else if (action === "copy-link") copy(permalink(article), "link", target);
    else if (action === "copy-output") fullOutput(article).then((t) => copy(t, "output", target));
    else if (action === "show-more") showMore(target);
    else if (action === "show-raw") showRaw(article);
    else if (action === "load-full") loadFull(article);
  });
  root.addEventListener(
    "toggle",
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLDetailsElement) || !target.open) return;
      if (target.classList.contains("tv-raw")) loadRaw(target);
      else if (target.classList.contains("tv-call-details")) decorate(ownerCall(target));
    },
    true,
  );

  // ---------------------------------------------------------------- the matcher (a Worker)
  // A reader's regular expression can run for days ((a+)+$), and a link sets it: it is
  // matched in a Worker (static/search-worker.js), never on the page's thread. A match
  // cannot be interrupted, so a worker that overruns MATCH_LIMIT_MS is terminated and the
  // next search starts a fresh one; a worker still busy when a newer search starts is too.
  const MATCH_LIMIT_MS = 2000;
  const SERVER_WAIT_MS = 30_000; // a server search answered by then, or given up
  const matcher = { worker: null, waiting: null }; // waiting: {resolve, timer} of the answer owed

  function settle(answer) {
    const waiting = matcher.waiting;
    if (!waiting) return;
    matcher.waiting = null;
    clearTimeout(waiting.timer);
    waiting.resolve(answer);
  }

  function stopWorker(answer) {
    matcher.worker?.terminate();
    matcher.worker = null;
    settle(answer);
  }

  function startWorker() {
    const worker = new Worker("/static/search-worker.js");
    worker.addEventListener("message", (event) => settle(event.data));
    worker.addEventListener("error", (event) => {
      event.preventDefault(); // said in the count line, not thrown at the page
      stopWorker({ error: "The search could not run" });
    });
    return worker;
  }

  function match(query, regex, texts) {
    // {matches, more}, {error} (a bad pattern), {slow} (over the limit) or {superseded}
    if (matcher.waiting) stopWorker({ superseded: true });
    try {
      matcher.worker ??= startWorker();
    } catch (error) {
      return Promise.resolve({ error: `The search could not run: ${error.message}` });
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => stopWorker({ slow: true }), MATCH_LIMIT_MS);
      matcher.waiting = { resolve, timer };
      matcher.worker.postMessage({ query, regex, texts, limit: MAX_MARKS });
    });
  }

  // ---------------------------------------------------------------- search
  const search = { query: "", marks: [], more: false, stops: [], current: -1, seq: 0 };
  search.server = null; // the server's answer when the page holds a window of the thread
  search.answered = { key: "", answer: null }; // the server's last answer, and what it answered
  search.asking = null; // the server search in flight: one at a time per page
  search.slow = ""; // a query and mode that overran: not matched again until it changes
  search.pending = null; // the element id of a call asked for (tv:reveal), not yet here

  function clearMarks() {
    const parents = new Set();
    for (const mark of root.querySelectorAll("mark.tv-match")) {
      parents.add(mark.parentNode);
      mark.replaceWith(...mark.childNodes);
    }
    for (const parent of parents) parent.normalize();
  }

  function searchable(node) {
    const parent = node.parentElement;
    return Boolean(parent) && !parent.closest("script, style, button, textarea, .tv-call-tools");
  }

  function textNodes() {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.data && searchable(node)) nodes.push(node);
    }
    return nodes;
  }

  function markMatches(nodes, texts, matches) {
    // the worker's [index, start, end], in order: each text node split around its matches
    // (text nodes and <mark> elements, never markup); a node changed meanwhile is left alone
    const marks = [];
    for (let at = 0; at < matches.length; ) {
      const index = matches[at][0];
      const text = texts[index];
      const pieces = [];
      const found = [];
      let last = 0;
      for (; at < matches.length && matches[at][0] === index; at += 1) {
        const [, start, end] = matches[at];
        if (start > last) pieces.push(document.createTextNode(text.slice(last, start)));
        found.push(element("mark", "tv-match", text.slice(start, end)));
        pieces.push(found[found.length - 1]);
        last = end;
      }
      const node = nodes[index];
      if (!node.isConnected || node.data !== text) continue;
      if (last < text.length) pieces.push(document.createTextNode(text.slice(last)));
      node.replaceWith(...pieces);
      marks.push(...found);
    }
    return marks;
  }

  function windowed() {
    if (root.querySelector(".tv-load-more")) return true;
    return Number(root.dataset.calls || 0) > topCalls().length;
  }

  async function serverMatches(query, regex, seq) {
    // the whole thread's matches, asked again only when the query or the calls change; one
    // request at a time, and none for a search superseded while it waited (typing, a live
    // thread's new calls): the page never sends the server a burst of searches
    while (search.asking) {
      await search.asking;
      if (seq !== search.seq) return null;
    }
    const key = `${query}\u0000${regex}\u0000${root.dataset.calls || ""}`;
    if (search.answered.key === key) return search.answered.answer;
    const params = new URLSearchParams({ q: query, regex: regex ? "1" : "0", limit: "1000" });
    // bounded: the next search waits for this one, so a request that never ends must not
    const signal = AbortSignal.timeout(SERVER_WAIT_MS);
    const asked = getJson(`${base}/search?${params}`, signal);
    search.asking = asked.catch((error) => ({ error: error.message }));
    const answer = await search.asking;
    search.asking = null;
    search.answered = { key, answer };
    return answer;
  }

  function refused(text, userAsked) {
    // a pattern that is bad or took too long: said beside the box, the box marked invalid
    searchInput.setAttribute("aria-invalid", "true");
    showCount(text, userAsked);
  }

  async function runSearch(userAsked) {
    const seq = ++search.seq;
    const query = searchInput.value;
    const regex = regexBox.checked;
    const mode = `${query}\u0000${regex}`;
    clearMarks();
    searchInput.removeAttribute("aria-invalid");
    Object.assign(search, { query: "", marks: [], more: false, stops: [], server: null });
    if (!query || search.slow === mode) {
      search.current = -1;
      if (query) refused(tooLong(), userAsked);
      else showCount("", false);
      return;
    }
    const nodes = textNodes();
    const texts = nodes.map((node) => node.data);
    const note = setTimeout(() => seq === search.seq && showCount("Searching…", false), 300);
    const answer = await match(query, regex, texts);
    clearTimeout(note);
    if (seq !== search.seq || answer.superseded) return; // a newer search started meanwhile
    if (answer.slow || answer.error) {
      if (answer.slow) search.slow = mode;
      search.current = -1;
      refused(answer.slow ? tooLong() : answer.error, userAsked);
      return;
    }
    Object.assign(search, { query, marks: markMatches(nodes, texts, answer.matches) });
    search.more = answer.more;
    const server = windowed() ? await serverMatches(query, regex, seq) : null;
    if (seq !== search.seq) return; // a newer search started meanwhile
    search.server = server;
    buildStops();
    showCount(countText(), userAsked);
    revealed();
  }

  function tooLong() {
    return `This pattern took too long: stopped after ${MATCH_LIMIT_MS / 1000} s, nothing marked`;
  }

  function buildStops() {
    const stops = [];
    const matches = search.server && Array.isArray(search.server.matches) ? search.server.matches : [];
    const seen = new Set();
    matches.forEach((match, position) => {
      const id = match && match.elementId;
      if (typeof id !== "string" || seen.has(id) || document.getElementById(id)) return;
      seen.add(id); // a call not on the page: one stop that asks live.js for it
      stops.push({ reveal: id, index: Number.isInteger(match.index) ? match.index : position });
    });
    for (const mark of search.marks) if (!mark.closest("[hidden]")) stops.push({ mark });
    search.stops = stops;
    if (search.current >= stops.length) search.current = stops.length - 1;
  }

  function plural(count, word) {
    // count may read "5000+" (more than the page marks)
    return `${count} ${word}${String(count) === "1" ? "" : "es"}`;
  }

  function countText() {
    const local = search.marks.length;
    const onPage = `${local}${search.more ? "+" : ""}`;
    const at = search.current >= 0 ? `${search.current + 1} of ` : "";
    const server = search.server;
    if (server && typeof server.total === "number") {
      const total = `${server.total}${server.truncated ? "+" : ""}`;
      const where = `${plural(total, "match")} in the thread, ${onPage} on the page`;
      return search.current >= 0 ? `stop ${at}${search.stops.length}: ${where}` : where;
    }
    if (server && server.error) return `${onPage} on the page (the server's search: ${server.error})`;
    return `${at}${plural(onPage, "match")}`;
  }

  function showCount(text, userAsked) {
    countLine.textContent = text;
    if (userAsked && text) announce(text);
  }

  function goTo(step) {
    const count = search.stops.length;
    if (!count) {
      announce(search.query ? "No match" : countLine.textContent || "Nothing to search for");
      return;
    }
    // a mark the page does not draw (the gist of an opened call, which the body repeats)
    // is passed over, in the same direction
    for (let tries = 0; tries < count; tries += 1) {
      if (search.current < 0) search.current = step > 0 ? 0 : count - 1;
      else search.current = (search.current + step + count) % count;
      if (showStop(search.stops[search.current])) return;
    }
  }

  function showStop(stop) {
    for (const mark of root.querySelectorAll("mark.tv-match-current")) {
      mark.classList.remove("tv-match-current");
    }
    if (stop.reveal) {
      search.pending = stop.reveal;
      const detail = { elementId: stop.reveal, index: stop.index };
      root.dispatchEvent(new CustomEvent("tv:reveal", { detail }));
      showCount(`${countText()} (loading that call)`, true);
      return true;
    }
    const mark = stop.mark;
    mark.classList.add("tv-match-current");
    for (let open = mark.parentElement.closest("details"); open; ) {
      open.open = true;
      open = open.parentElement && open.parentElement.closest("details");
    }
    if (!mark.getClientRects().length) return false;
    mark.scrollIntoView({ block: "center" });
    showCount(countText(), true);
    return true;
  }

  function revealed() {
    // the call asked for arrived (live.js loaded it): go to its first match
    const id = search.pending;
    const article = id && document.getElementById(id);
    if (!article) return;
    search.pending = null;
    const index = search.stops.findIndex((stop) => stop.mark && article.contains(stop.mark));
    if (index < 0) return;
    search.current = index - 1;
    goTo(1);
  }

  let searchTimer = null;
  function searchSoon() {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      search.current = -1;
      writeUrl();
      runSearch(true);
    }, 200);
  }
  searchInput.addEventListener("input", searchSoon);
  regexBox.addEventListener("change", searchSoon);
  toolbar.querySelector("[data-tv-search]").addEventListener("submit", (event) => {
    event.preventDefault();
    goTo(1);
  });
  searchInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      goTo(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      event.preventDefault(); // the query stays (a search box would clear it)
      searchInput.blur();
      if (lastCall && lastCall.isConnected) focusCall(lastCall);
    }
  });

  // ---------------------------------------------------------------- filters and the URL
  const GROUPS = [
    ["status", "Status"],
    ["tool", "Tool"],
    ["kind", "Kind"],
  ];
  const chosen = { status: new Set(), tool: new Set(), kind: new Set() };

  function readUrl() {
    const params = new URLSearchParams(window.location.search);
    for (const [group] of GROUPS) for (const value of params.getAll(group)) chosen[group].add(value);
    searchInput.value = params.get("q") || "";
    regexBox.checked = params.get("regex") === "1";
  }

  function writeUrl() {
    const url = new URL(window.location.href);
    for (const [group] of GROUPS) {
      url.searchParams.delete(group);
      for (const value of chosen[group]) url.searchParams.append(group, value);
    }
    if (searchInput.value) url.searchParams.set("q", searchInput.value);
    else url.searchParams.delete("q");
    if (regexBox.checked) url.searchParams.set("regex", "1");
    else url.searchParams.delete("regex");
    if (url.href !== window.location.href) history.replaceState(history.state, "", url);
  }

  function chip(group, value, count) {
    const node = element("button", "tv-chip");
    node.type = "button";
    node.dataset.group = group;
    node.dataset.value = value;
    node.setAttribute("aria-pressed", String(chosen[group].has(value)));
    const label = group === "status" ? value.replace(/_/g, " ") : value;
    node.append(element("span", "tv-chip-label", label), " ");
    node.append(element("span", "tv-chip-count", String(count)));
    return node;
  }

  function buildChips() {
    const calls = topCalls();
    const focused = document.activeElement && document.activeElement.closest(".tv-chip, .tv-clear");
    const groups = [];
    for (const [group, label] of GROUPS) {
      const counts = new Map();
      for (const article of calls) {
        const value = article.dataset[group] || "";
        if (value) counts.set(value, (counts.get(value) || 0) + 1);
      }
      for (const value of chosen[group]) if (!counts.has(value)) counts.set(value, 0);
      if (!counts.size) continue;
      const box = element("div", "tv-filter-group");
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", label);
      box.append(element("span", "tv-filter-name", label));
      const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      for (const [value, count] of sorted) box.append(chip(group, value, count));
      groups.push(box);
    }
    if (GROUPS.some(([group]) => chosen[group].size)) {
      const clear = element("button", "tv-clear", "Clear filters");
      clear.type = "button";
      groups.push(clear);
    }
    filterBar.replaceChildren(...groups);
    if (focused) refocus(focused);
  }

  function refocus(old) {
    // a rebuilt chip takes the focus its old self had
    const fresh = [...filterBar.querySelectorAll("button")].find(
      (node) =>
        node.className === old.className &&
        node.dataset.group === old.dataset.group &&
        node.dataset.value === old.dataset.value,
    );
    (fresh || searchInput).focus();
  }

  function applyFilters() {
    const calls = topCalls();
    let shown = 0;
    for (const article of calls) {
      const value = (group) => article.dataset[group] || "";
      const keep = GROUPS.every(([g]) => !chosen[g].size || chosen[g].has(value(g)));
      article.hidden = !keep;
      if (keep) shown += 1;
    }
    return `Showing ${shown} of ${calls.length} call${calls.length === 1 ? "" : "s"}`;
  }

  function filterChanged() {
    writeUrl();
    buildChips();
    announce(applyFilters());
    if (search.query) {
      buildStops();
      showCount(countText(), false);
    }
  }

  toolbar.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("button") : null;
    if (!target) return;
    if (target.classList.contains("tv-chip")) {
      const values = chosen[target.dataset.group];
      const value = target.dataset.value;
      if (values.has(value)) values.delete(value);
      else values.add(value);
      filterChanged();
    } else if (target.classList.contains("tv-clear")) {
      for (const [group] of GROUPS) chosen[group].clear();
      filterChanged();
    } else if (target.dataset.tvAction === "next") goTo(1);
    else if (target.dataset.tvAction === "prev") goTo(-1);
    else if (target.dataset.tvAction === "expand") setAllOpen(true);
    else if (target.dataset.tvAction === "collapse") setAllOpen(false);
    else if (target.dataset.tvAction === "keys") keysDialog.showModal();
  });

  // ---------------------------------------------------------------- keys
  let lastCall = null;

  function visibleCalls() {
    return [...root.querySelectorAll(CALL)].filter((article) =>
      article.checkVisibility ? article.checkVisibility() : article.offsetParent !== null,
    );
  }

  function focusCall(article) {
    const summary = own(article, "summary.tv-call-summary");
    if (!summary) article.tabIndex = -1; // a call without a summary (a receipt) takes it
    (summary || article).focus({ preventScroll: true });
    article.scrollIntoView({ block: "start" }); // scroll-margin-top keeps it below the bar
    lastCall = article;
  }

  function move(step) {
    const calls = visibleCalls();
    if (!calls.length) return;
    const from = ownerCall(document.activeElement) || lastCall;
    let index = from ? calls.indexOf(from) : -1;
    if (index < 0) {
      // nothing chosen yet: from where the reader is, the first call below the top
      const below = calls.findIndex((article) => article.getBoundingClientRect().top > 1);
      index = below < 0 ? calls.length : below;
      index = step > 0 ? index - 1 : index;
    }
    focusCall(calls[Math.min(calls.length - 1, Math.max(0, index + step))]);
  }

  function toggleCall(article) {
    const details = article && own(article, "details.tv-call-details");
    if (details) details.open = !details.open;
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (keysDialog.open || typing(event.target)) return; // the dialog closes on Escape itself
    const active = document.activeElement;
    const onControl = active instanceof Element && active.closest("a, button, summary, select");
    const keys = {
      j: () => move(1),
      k: () => move(-1),
      o: () => toggleCall(ownerCall(active) || lastCall),
      Enter: () => (onControl ? null : toggleCall(ownerCall(active))),
      "/": () => {
        searchInput.focus();
        searchInput.select();
      },
      "?": () => keysDialog.showModal(),
      n: () => goTo(1),
      N: () => goTo(-1),
    };
    const action = keys[event.key];
    if (!action || (event.key === "Enter" && onControl)) return;
    event.preventDefault();
    action();
  });

  // ---------------------------------------------------------------- permalinks and start
  function fragmentId() {
    // the hash, unescaped: a link's malformed escape (#%E0%A4%A) is taken as written, never
    // thrown (a throw here, at start, left the page with no toolbar, search or filters)
    const raw = window.location.hash.slice(1);
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }

  function openTarget() {
    const id = fragmentId();
    const target = id && document.getElementById(id);
    if (!target || !root.contains(target)) return;
    for (let open = target.closest("details"); open; ) {
      open.open = true;
      open = open.parentElement && open.parentElement.closest("details");
    }
    const details = target.matches(CALL) ? own(target, "details.tv-call-details") : null;
    if (details) details.open = true;
  }

  function refresh() {
    for (const article of root.querySelectorAll(CALL)) decorate(article);
    buildChips();
    applyFilters();
    refreshTimes();
    if (searchInput.value) runSearch(false);
  }

  let queued = false;
  function refreshSoon() {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      refresh();
    }, 30);
  }

  function styled(then) {
    // the toolbar's sheet, linked from here: a page read without script never needs it
    const sheet = document.createElement("link");
    sheet.rel = "stylesheet";
    sheet.href = "/static/viewer.css";
    sheet.addEventListener("load", then, { once: true });
    sheet.addEventListener("error", then, { once: true });
    document.head.append(sheet);
  }

  readUrl();
  refresh();
  openTarget();
  root.addEventListener("tv:calls-changed", refreshSoon);
  window.addEventListener("hashchange", openTarget);
  styled(() => {
    toolbar.hidden = false;
    root.dataset.viewer = "ready"; // the tests wait on this, not on time
  });
})();
