// toolview live page: follows the thread over SSE (live mode) and patches it in place.
// Calls are fetched as server-rendered fragments, one call at a time; running output
// and plain messages are drawn here, always as text (textContent), never as markup.
// A call's fragment is fetched with its id as a query parameter (a path segment ".."
// would be normalised into another URL) and accepted only as the one element the
// server named for that call. Running output arrives cleaned by the server
// (safety.output.live_output): no escape sequence, colours as SUB-marked SGR parameters
// ("\x1a0;1;38;5;1m"), erase-to-line-end as "\x1aK", carriage returns and backspaces as
// they are; it is drawn here as text nodes and spans whose classes come from the
// stylesheet, each line its last frame (as render.clean.shown_output draws it).
// Which calls run is the server's, never decided here (its call ledger): after a frame
// that can change a call's status the page asks /running (server.page.running) and draws the
// status line it is sent; a call it draws running the server does not run, or the other
// way round, is fetched again. No state machine here: the frames only say when to ask.
// The whole thread is fetched again only for what cannot be drawn exactly here: a
// message the server would clean or cut, a pending call whose id the page does not
// know when its run ends, or a frame of a kind this script does not know.
// Windowing (server.page.window): the page holds calls from index `first` (data-first) to the
// end; earlier ones come from /window?before=&count= when the reader clicks "load more",
// scrolls up to it, or a search jumps to one (the `tv:reveal` event, detail {elementId,
// index}). A refresh asks only for the window (/window?from=first), never the whole thread.
// After calls are inserted or replaced, `tv:calls-changed` is dispatched on #tv-live.
// A page waiting for its thread (data-waiting) follows the index and reloads when it exists.
"use strict";
(() => {
  const root = document.getElementById("tv-live");
  if (!root) return;
  const thread = root.dataset.thread;
  const base = `/api/threads/${encodeURIComponent(thread)}`;
  if (root.dataset.waiting === "true") {
    const index = new EventSource("/api/threads/follow");
    index.addEventListener("threads", (event) => {
      const listed = JSON.parse(event.data).threads || [];
      if (listed.some((t) => t.id === thread)) {
        index.close();
        window.location.reload();
      }
    });
    return;
  }
  let first = Number(root.dataset.first) || 0; // index of the first call the page holds
  let loading = null; // the "load more" in flight
  const statusLine = document.getElementById("tv-status");
  const outputs = new Map(); // toolCallId -> accumulated text shown so far
  const elements = new Map(); // toolCallId -> element id of its <article>
  let statusSeq = -1; // the seq of the last /running drawn: an older answer is not drawn
  let statusAsked = false; // a frame asked for the status since the last request went
  let statusBusy = null; // the /running request loop in flight
  const callIds = new Map(Object.entries(JSON.parse(root.dataset.pending || "{}")));
  for (const [elementId, callId] of callIds) elements.set(callId, elementId);
  const maxLines = Number(root.dataset.maxLines) || 0;
  const maxChars = Number(root.dataset.maxChars) || 0;
  const SHOWN = 200000; // characters of live output kept in the page
  // safety.invisible's INVISIBLE_CLASS: bidi, zero-width, fillers, tags, lone surrogates
  const INVISIBLE =
    "\\u061c\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069" +
    "\\u115f\\u1160\\u180e\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb" +
    "\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}\\ud800-\\udfff";
  // What the server's cleaning would change (controls, bidi and invisible characters,
  // lone surrogates: safety.terminal / safety.invisible): such a message is fetched.
  const UNCLEAN = new RegExp(`[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${INVISIBLE}]`, "u");
  const STYLE_MARK = /\x1a([0-9;]{0,64})m/y; // safety.output.STYLE_MARK + parameters + "m"
  const ELEMENT_ID = /^tv-call-[A-Za-z0-9_-]{1,200}$/;
  let summaryTimer = null;
  let covered = 0; // highest seq the last whole-thread fragment held
  let queue = Promise.resolve();

  function dropCodePoints(text, count) {
    // the server counts characters as code points; JavaScript strings are UTF-16
    let index = 0;
    while (count > 0 && index < text.length) {
      const unit = text.charCodeAt(index);
      index += unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length ? 2 : 1;
      count -= 1;
    }
    return text.slice(index);
  }

  function codePoint(char) {
    const code = char.codePointAt(0);
    if (code < 0x20) return String.fromCodePoint(0x2400 + code); // control pictures
    if (code === 0x7f) return "\u2421";
    return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  }

  function askStatus() {
    // one request at a time; frames arriving meanwhile ask once more, after it
    statusAsked = true;
    if (!statusBusy) statusBusy = pollStatus().finally(() => (statusBusy = null));
  }

  async function pollStatus() {
    while (statusAsked) {
      statusAsked = false;
      const url = `${base}/running`;
      const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) continue;
      const sent = await response.json();
      const drawn = queue.then(() => drawStatus(sent));
      queue = drawn.catch(() => undefined);
      await queue;
    }
  }

  async function drawStatus(sent) {
    // the server's status line, and each drawn call whose status it no longer says fetched
    if (!Number.isInteger(sent.seq) || sent.seq < statusSeq) return;
    statusSeq = sent.seq;
    statusLine.textContent = String(sent.line); // cleaned and redacted by the server
    const runningNow = new Map(Object.entries(sent.running || {}));
    for (const [elementId, callId] of runningNow) {
      if (!ELEMENT_ID.test(elementId) || typeof callId !== "string") continue;
      if (callIds.has(elementId) && callIds.get(elementId) !== callId) continue;
      if (elements.has(callId) && elements.get(callId) !== elementId) continue;
      callIds.set(elementId, callId);
      elements.set(callId, elementId);
    }
    let unknown = false;
    const drawnOpen = 'article.tv-call[data-state="pending"], article.tv-call[data-state="aborted"]';
    for (const article of root.querySelectorAll(drawnOpen)) {
      if (article.closest(".tv-subthread")) continue; // a sub-agent's: its owner redraws it
      if ((article.dataset.state === "pending") === runningNow.has(article.id)) continue;
      const callId = callIds.get(article.id);
      if (callId === undefined) unknown = true;
      else await refreshCall(callId);
    }
    if (unknown) await refreshThread();
  }

  function threadContainer() {
    return root.querySelector(".tv-thread") || root;
  }

  async function fetchHtml(path, seen) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return null;
    if (seen) seen(response);
    const template = document.createElement("template");
    template.innerHTML = await response.text();
    return template.content;
  }

  async function fetchCall(callId) {
    // the one element the server named for this call, or null: nothing else is taken
    const url = `${base}/call?id=${encodeURIComponent(callId)}`;
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return null;
    const expected = response.headers.get("x-toolview-element");
    if (!expected || !ELEMENT_ID.test(expected)) return null;
    // a sub-agent's call is drawn inside the thread's call that ran it: that one comes
    const owner = response.headers.get("x-toolview-call") || callId;
    const index = Number(response.headers.get("x-toolview-index"));
    if (elements.has(owner) && elements.get(owner) !== expected) return null;
    if (callIds.has(expected) && callIds.get(expected) !== owner) return null;
    const template = document.createElement("template");
    template.innerHTML = await response.text();
    const nodes = [...template.content.childNodes].filter(
      (node) => node.nodeType !== Node.TEXT_NODE || node.textContent.trim() !== "",
    );
    const [article] = nodes;
    if (nodes.length !== 1 || !(article instanceof HTMLElement)) return null;
    if (article.localName !== "article" || !article.classList.contains("tv-call")) return null;
    return article.id === expected ? { article, owner, index } : null;
  }

  function openSections(element) {
    // the ids of the sub-agent sections a reader opened: a redraw keeps them open
    return [...element.querySelectorAll("details[open][id]")].map((details) => details.id);
  }

  function reopen(ids) {
    for (const id of ids) document.getElementById(id)?.setAttribute("open", "");
  }

  async function refreshCall(callId) {
    const fetched = await fetchCall(callId);
    if (!fetched) return null;
    const { article, owner, index } = fetched;
    // drawn not running by the server (ended, aborted): its output so far is the server's now
    if (owner === callId && article.dataset.state !== "pending") outputs.delete(callId);
    const existing = document.getElementById(article.id);
    if (!existing && index < first) return null; // before the window: drawn when loaded
    const opened = existing ? openSections(existing) : [];
    if (existing) existing.replaceWith(article);
    else {
      threadContainer().appendChild(article);
      root.dataset.calls = String(Math.max(Number(root.dataset.calls) || 0, index + 1));
    }
    reopen(opened);
    elements.set(owner, article.id);
    callIds.set(article.id, owner);
    // a running call's fragment holds no live output: the output it had so far is drawn again
    if (owner === callId && outputs.has(callId)) drawOutput(callId, outputs.get(callId));
    scheduleSummary();
    changed();
    return article;
  }

  // the header's facts (server/page/header_facts.py): [term, words] pairs, drawn as text
  function drawFacts(header, after) {
    if (header === null || !after) return;
    let pairs;
    try {
      pairs = JSON.parse(header);
    } catch {
      return;
    }
    if (!Array.isArray(pairs)) return;
    let list = document.querySelector("dl.tv-facts");
    if (!pairs.length) {
      if (list) list.remove();
      return;
    }
    if (!list) {
      list = document.createElement("dl");
      list.className = "tv-facts";
      list.setAttribute("aria-label", "Session");
      after.after(list);
    }
    list.replaceChildren(
      ...pairs.map(([term, words]) => {
        const item = document.createElement("div");
        item.className = "tv-fact";
        const dt = document.createElement("dt");
        dt.textContent = String(term);
        const dd = document.createElement("dd");
        dd.textContent = String(words);
        item.append(dt, dd);
        return item;
      }),
    );
  }

  async function refreshSummary() {
    summaryTimer = null;
    const fragment = await fetchHtml(`/threads/${encodeURIComponent(thread)}/summary`, (response) => {
      // the header's counts line (server/counts_line.py): the server's words, as text
      const counts = response.headers.get("x-toolview-counts");
      const line = document.getElementById("tv-counts");
      if (counts !== null && line) line.textContent = counts;
      drawFacts(response.headers.get("x-toolview-facts"), line);
    });
    if (!fragment) return;
    const fresh = fragment.querySelector(".tv-summary");
    const existing = root.querySelector(".tv-summary");
    if (existing && fresh) existing.replaceWith(fresh);
    else if (existing) existing.remove();
    else if (fresh) threadContainer().appendChild(fresh);
  }

  function scheduleSummary() {
    // at most one summary request a second, whatever the number of calls changing
    if (summaryTimer !== null) return;
    summaryTimer = setTimeout(() => {
      queue = queue.then(refreshSummary).catch(() => undefined);
    }, 1000);
  }

  function plainMessage(data) {
    // drawn here only when the server would show it unchanged: no cleaning, no cut, and
    // no Markdown (a message is Markdown on the page: html.layout.window_message_html)
    const text = data.text;
    if (typeof text !== "string" || !/^[a-z]+$/.test(data.role)) return false;
    if (text.length > maxChars || UNCLEAN.test(text)) return false;
    return text.split("\n").length - 1 < maxLines && plainLines(text);
  }

  // A message Markdown reads as itself, one paragraph of lines (html.kinds.markdown, raw
  // HTML off): no character that marks anything up (emphasis, code, links, escapes,
  // tables), no line that starts a block (heading, quote, list, code, rule) once its
  // leading spaces go, no blank line, no autolink and no entity. Else the server draws it.
  const PLAIN_CHARS =
    /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f ,.;:'"?!()/%@$<>&+=^-]*$/u;
  const BLOCK_START = /^(?:[\s>+=-]|\p{N}+[.)])/u;
  const AUTOLINK = /<[A-Za-z][A-Za-z0-9+.-]{1,31}:|<[^\s<>]*@[^\s<>]*>/;
  const ENTITY = /&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/;

  function plainLines(text) {
    if (/^\s/.test(text) || AUTOLINK.test(text) || ENTITY.test(text)) return false;
    return text.split("\n").every((line) => {
      const shown = line.trim();
      return shown !== "" && PLAIN_CHARS.test(shown) && !BLOCK_START.test(shown);
    });
  }

  function drawMessage(data) {
    // the markup of the html surface's message_html for a plain message, built as
    // elements and text;
    // thinking is collapsed, a native <details> as that markup has it
    const thinking = data.role === "thinking";
    const section = document.createElement(thinking ? "details" : "section");
    section.className = `tv-message tv-message-${data.role}`;
    const role = document.createElement(thinking ? "summary" : "span");
    role.className = "tv-role";
    role.textContent = data.role.charAt(0).toUpperCase() + data.role.slice(1);
    // one paragraph, its lines apart by <br> (a chat's newline), as markdown-it writes it
    const text = document.createElement("div");
    text.className = "tv-message-text tv-markdown";
    const paragraph = document.createElement("p");
    data.text.split("\n").forEach((line, index) => {
      if (index) paragraph.append(document.createElement("br"), `\n${line.trim()}`);
      else paragraph.append(line.trim());
    });
    text.append(paragraph, "\n");
    section.append(role, text);
    threadContainer().appendChild(section);
    changed();
  }

  function changed() {
    root.dispatchEvent(new CustomEvent("tv:calls-changed", { bubbles: true }));
  }

  function loadMoreButton() {
    return root.querySelector("button.tv-load-more");
  }

  function setFirst(value) {
    // the window now starts at call `value`: the button says how many are before it
    first = value;
    root.dataset.first = String(value);
    const button = loadMoreButton();
    if (!button) return;
    if (value <= 0) {
      button.remove();
      return;
    }
    button.dataset.before = String(value);
    button.textContent = `${value} earlier call${value === 1 ? "" : "s"} \u2014 load more`;
  }

  async function loadEarlier(count) {
    // the `count` calls before the window, inserted above its first entry
    if (first <= 0) return;
    const url = `${base}/window?before=${first}&count=${Math.min(count, 1000)}`;
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const start = Number(response.headers.get("x-toolview-first"));
    if (!Number.isInteger(start) || start >= first) return;
    const template = document.createElement("template");
    template.innerHTML = await response.text();
    const container = threadContainer();
    const button = loadMoreButton();
    const anchor = button ? button.nextSibling : container.firstChild;
    for (const article of template.content.querySelectorAll("article.tv-call[id]")) {
      if (document.getElementById(article.id)) article.remove(); // never two of one call
    }
    container.insertBefore(template.content, anchor);
    setFirst(start);
    changed();
  }

  function loadMore(count = 100) {
    // one load at a time: a click, the scroll and a search jump share it
    if (!loading) {
      loading = loadEarlier(count).finally(() => {
        loading = null;
        watch(); // still in view (a short load): the observer says so again
      });
    }
    return loading;
  }

  async function reveal(detail) {
    // load back to call `index` (a search match may be far before the window), then show it
    const index = Number(detail && detail.index);
    while (Number.isInteger(index) && index >= 0 && index < first) {
      const before = first;
      await loadMore(first - index + 20);
      if (first >= before) break; // nothing came: stop rather than spin
    }
    const id = detail && detail.elementId;
    const target = typeof id === "string" && ELEMENT_ID.test(id) ? document.getElementById(id) : null;
    if (target) target.scrollIntoView({ block: "start" });
    root.dispatchEvent(new CustomEvent("tv:revealed", { detail: { elementId: id, found: !!target } }));
  }

  root.addEventListener("tv:reveal", (event) => {
    reveal(event.detail).catch(() => undefined);
  });
  root.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button.tv-load-more");
    if (button) loadMore().catch(() => undefined);
  });
  // scrolling up to the button loads more; armed only once the reader scrolls (the page
  // opens at its top, where the button is: it must not load the whole thread by itself)
  const watcher = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore().catch(() => undefined);
    },
    { rootMargin: "400px 0px 0px 0px" },
  );
  let armed = false;
  function watch() {
    const button = loadMoreButton();
    if (!armed || !button) return;
    watcher.unobserve(button);
    watcher.observe(button);
  }
  const arm = () => {
    if (window.scrollY <= 0) return;
    window.removeEventListener("scroll", arm);
    armed = true;
    watch();
  };
  window.addEventListener("scroll", arm, { passive: true });

  async function refreshThread() {
    const url = `${base}/window?from=${first}`;
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const template = document.createElement("template");
    template.innerHTML = await response.text();
    const fresh = template.content.querySelector(".tv-thread");
    if (!fresh) return;
    const opened = openSections(threadContainer());
    threadContainer().replaceWith(fresh);
    reopen(opened);
    const start = Number(response.headers.get("x-toolview-first"));
    if (Number.isInteger(start)) setFirst(start);
    root.dataset.calls = response.headers.get("x-toolview-calls") || root.dataset.calls;
    watch();
    // it may hold observations whose frames are still queued: do not draw their messages twice
    covered = Math.max(covered, Number(response.headers.get("x-toolview-seq")) || 0);
    for (const [callId, text] of outputs) {
      const article = document.getElementById(elements.get(callId) ?? "");
      if (article && article.dataset.state !== "pending") outputs.delete(callId);
      else drawOutput(callId, text);
    }
    changed();
  }

  function drawOutput(callId, text) {
    const article = elements.has(callId) ? document.getElementById(elements.get(callId)) : null;
    // a call the server draws not running (aborted, ended) is its fragment, not live output
    const body = article?.dataset.state === "pending" && article.querySelector(".tv-body");
    if (!body) return false;
    let pre = body.querySelector(".tv-live-output");
    if (!pre) {
      pre = document.createElement("pre");
      pre.className = "tv-live-output";
      // a labelled region that takes the focus: its box scrolls, keys must reach it
      pre.setAttribute("role", "region");
      pre.setAttribute("aria-label", "live output");
      pre.tabIndex = 0;
      const indicator = body.querySelector(".tv-pending");
      body.replaceChildren(...(indicator ? [indicator] : []), pre);
    }
    let shown = text;
    if (text.length > SHOWN) {
      // whole lines only: a cut could fall inside a colour mark
      shown = text.slice(-SHOWN);
      shown = shown.slice(shown.indexOf("\n") + 1);
    }
    pre.replaceChildren(...styledNodes(shown));
    return true;
  }

  // render/html/pairs.py's clashes: a text colour under the minimum contrast on the
  // background the tool chose, in the light scheme or the dark; the colours are the
  // stylesheet's (--tv-pair-<scheme>-<name>: both schemes', whichever is shown)
  const MINIMUM_CONTRAST = 4.6;
  const LEVELS = [0, 95, 135, 175, 215, 255];
  const pairColours = new Map();

  function schemeColour(scheme, name) {
    const key = `--tv-pair-${scheme}-${name}`;
    if (!pairColours.has(key)) {
      const hex = getComputedStyle(document.documentElement).getPropertyValue(key).trim();
      pairColours.set(key, [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)));
    }
    return pairColours.get(key);
  }

  function paletteColour(index, scheme) {
    if (index < 16) return schemeColour(scheme, `ansi-${index}`);
    if (index >= 232) return Array(3).fill(8 + 10 * (index - 232));
    const cube = index - 16;
    return [LEVELS[Math.floor(cube / 36)], LEVELS[Math.floor(cube / 6) % 6], LEVELS[cube % 6]];
  }

  function luminance(rgb) {
    const [r, g, b] = rgb.map((value) => {
      const c = value / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  function contrast(one, other) {
    const [a, b] = [luminance(one), luminance(other)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  }

  function textColours(fg, scheme) {
    // no colour of the tool's: the text it inherits (the output's, stderr's)
    if (!fg) return [schemeColour(scheme, "fg"), schemeColour(scheme, "stderr-fg")];
    if (fg === "x") return [schemeColour(scheme, "code-bg")];
    return [paletteColour(Number(fg), scheme)];
  }

  function clashes(fg, bg) {
    return [0, 1].some((scheme) => {
      const ground = bg === "x" ? schemeColour(scheme, "fg") : paletteColour(Number(bg), scheme);
      return textColours(fg, scheme).some((text) => contrast(text, ground) < MINIMUM_CONTRAST);
    });
  }

  function styleClasses(params) {
    // render/html/palette.py's style_classes, from the server's canonical parameters
    const style = { fg: "", bg: "", flags: "" };
    const fields = params.split(";").map(Number);
    for (let i = 0; i < fields.length; i += 1) {
      const code = fields[i];
      const flag = { 1: "b", 2: "d", 3: "i", 4: "u", 7: "v" }[code];
      if (code === 0) Object.assign(style, { fg: "", bg: "", flags: "" });
      else if (flag) style.flags += flag;
      else if ((code === 38 || code === 48) && fields[i + 1] === 5) {
        const index = fields[i + 2];
        if (Number.isInteger(index) && index >= 0 && index <= 255) {
          style[code === 38 ? "fg" : "bg"] = String(index);
        }
        i += 2;
      }
    }
    let { fg, bg } = style;
    if (style.flags.includes("v")) [fg, bg] = [bg || "x", fg || "x"];
    const classes = [];
    if (bg && clashes(fg, bg)) classes.push(`tv-k${bg}`); // the best text on that ground
    else if (bg && fg && fg !== "x") classes.push(`tv-e${fg}`); // the tool's pair, exact
    else if (fg) classes.push(`tv-f${fg}`);
    if (bg) classes.push(`tv-g${bg}`);
    for (const flag of "bdiu") if (style.flags.includes(flag)) classes.push(`tv-s${flag}`);
    return classes.join(" ");
  }

  function shownChar(char) {
    // the server cleaned the text; anything unclean left is shown, never obeyed
    const code = char.codePointAt(0);
    if ((code < 0x20 && char !== "\t") || (code >= 0x7f && code <= 0x9f)) return codePoint(char);
    if (code === 0x2028 || code === 0x2029 || (code >= 0x600 && UNCLEAN.test(char))) {
      return codePoint(char);
    }
    return char;
  }

  function styledNodes(text) {
    // each line as cells (character, classes) with a cursor: \r returns, \b steps back
    const nodes = [];
    let cells = [];
    let col = 0;
    let classes = "";
    const endLine = (last) => {
      let run = "";
      let runClasses = "";
      const flush = () => {
        if (!run) return;
        if (runClasses) {
          const span = document.createElement("span");
          span.className = runClasses;
          span.textContent = run;
          nodes.push(span);
        } else nodes.push(document.createTextNode(run));
        run = "";
      };
      for (const [char, cellClasses] of cells) {
        if (cellClasses !== runClasses) flush();
        runClasses = cellClasses;
        run += char;
      }
      flush();
      if (!last) nodes.push(document.createTextNode("\n"));
      cells = [];
      col = 0;
    };
    for (let i = 0; i < text.length; ) {
      const char = String.fromCodePoint(text.codePointAt(i));
      if (char === "\x1a" && text[i + 1] === "K") {
        cells.length = Math.min(cells.length, col); // ESC[K: erase to the line's end
        i += 2;
        continue;
      }
      if (char === "\x1a") {
        STYLE_MARK.lastIndex = i;
        const mark = STYLE_MARK.exec(text);
        if (mark) {
          classes = styleClasses(mark[1]);
          i = STYLE_MARK.lastIndex;
          continue;
        }
      }
      i += char.length;
      if (char === "\n") endLine(false);
      else if (char === "\r") col = 0;
      else if (char === "\b") col = Math.max(0, col - 1);
      else {
        cells[col] = [shownChar(char), classes];
        col += 1;
      }
    }
    endLine(true);
    return nodes;
  }

  async function onOutput(data) {
    const callId = data.toolCallId;
    const before = outputs.get(callId) ?? "";
    let text = data.text;
    if (data.op === "append") text = before + data.text;
    else if (data.op === "slide") text = dropCodePoints(before, data.drop) + data.text;
    if (data.complete) {
      outputs.delete(callId);
      await refreshCall(callId);
      askStatus();
      return;
    }
    outputs.set(callId, text);
    if (!drawOutput(callId, text)) {
      // a call the page has not drawn: output may be how it first appears
      await refreshCall(callId);
      drawOutput(callId, text);
      askStatus();
    }
  }

  async function handle(data, seq) {
    // a time widens the thread's span: the summary says it (at most once a second)
    if (typeof data.at === "string") scheduleSummary();
    switch (data.kind) {
      case "tool-output":
        await onOutput(data);
        break;
      case "tool-call":
        await refreshCall(data.toolCallId);
        askStatus();
        break;
      case "tool-result":
      case "tool-refused":
        outputs.delete(data.toolCallId);
        await refreshCall(data.toolCallId);
        askStatus();
        break;
      case "message":
        if (seq <= covered) break;
        if (plainMessage(data)) drawMessage(data);
        else await refreshThread();
        break;
      case "run-started":
        // a run starting again runs its aborted calls again: which ones is the server's
        askStatus();
        break;
      case "usage":
        // a model turn's tokens: nothing to draw, the summary sums them
        scheduleSummary();
        break;
      case "run-ended":
        // a run that says why it ended closes with a line of its own: the thread has it;
        // the calls it reached are the server's to say (/running)
        if (data.reason) await refreshThread();
        askStatus();
        break;
      default:
        await refreshThread();
        askStatus();
    }
  }

  const source = new EventSource(`${base}/follow?mode=live&lastEventId=${root.dataset.seq}`);
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    const seq = Number(event.lastEventId) || 0;
    queue = queue.then(() => handle(data, seq)).catch(() => undefined);
  };
  source.onopen = () => root.setAttribute("data-connected", "true");
  source.onerror = () => root.setAttribute("data-connected", "false");
})();
