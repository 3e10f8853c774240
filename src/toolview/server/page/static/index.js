// toolview index: follows GET /api/threads/follow (SSE), keeps the whole listing as data and
// draws ONE page of it (PAGE rows) — filtered, sorted, grouped by project — in the markup
// server/page/index/table.py draws, as elements and text only (every field is untrusted text,
// already redacted and cleaned by the server: never markup). 10,000 sessions stay a few
// thousand DOM nodes. The search box asks /api/search (every session, the log's FTS index)
// and links each hit to its call on the thread page.
"use strict";
(() => {
  const holder = document.getElementById("tv-index");
  if (!holder) return;
  const PAGE = 100;
  const COLUMNS = [
    ["title", "Session", false],
    ["agent", "Agent", false],
    ["models", "Model", false],
    ["startedAt", "Started", false],
    ["spanMs", "Duration", true],
    ["calls", "Calls", true],
    ["failed", "Failed", true],
    ["tokens", "Tokens", true],
    ["costUsd", "Cost", true],
    ["status", "Status", false],
  ];
  const NO_PROJECT = "(no project)";
  const $ = (id) => document.getElementById(id);
  const filters = {
    agent: $("tv-f-agent"),
    project: $("tv-f-project"),
    status: $("tv-f-status"),
    since: $("tv-f-since"),
    group: $("tv-f-group"),
  };
  const state = { threads: [], sort: "startedAt", descending: true, page: 0, cursor: -1 };

  // ------------------------------------------------------------------ cells
  function el(tag, text, className) {
    const element = document.createElement(tag);
    if (text !== undefined) element.textContent = String(text);
    if (className) element.className = className;
    return element;
  }

  function time(value) {
    const text = String(value);
    const element = el("time", `${text.replace("T", " ").replace(/Z$/, "").slice(0, 16)} UTC`);
    element.dateTime = text;
    element.title = text;
    return element;
  }

  function duration(ms) {
    if (typeof ms !== "number") return "—";
    const whole = Math.floor(ms / 1000);
    const two = (n) => String(n).padStart(2, "0");
    if (whole < 60) return `${whole}s`;
    if (whole < 3600) return `${Math.floor(whole / 60)}m${two(whole % 60)}s`;
    return `${Math.floor(whole / 3600)}h${two(Math.floor((whole % 3600) / 60))}m`;
  }

  const withSub = (own, sub) => (Number(sub) > 0 ? `${Number(own) || 0}+${Number(sub)}` : String(Number(own) || 0));
  const models = (t) => (Array.isArray(t.models) && t.models.length ? t.models.map(String).join(", ") : "—");

  // a cell labelled with its column's heading: the narrow layout shows it before the value
  function cell(child, numeric, label) {
    const td = el("td", undefined, numeric ? "tv-num" : undefined);
    if (label) td.dataset.label = label;
    td.append(child);
    return td;
  }

  function row(thread, index) {
    const tr = document.createElement("tr");
    tr.dataset.thread = String(thread.id);
    tr.dataset.index = String(index);
    if (typeof thread.counts === "string") tr.title = thread.counts;
    const link = el("a", thread.title);
    link.href = `/threads/${encodeURIComponent(thread.id)}`;
    const status = el("span", thread.status || "", "tv-state");
    status.dataset.status = String(thread.status || "");
    tr.append(
      cell(link),
      cell(String(thread.agent || ""), false, "Agent"),
      cell(models(thread), false, "Model"),
      cell(time(thread.startedAt), false, "Started"),
      cell(duration(thread.spanMs), true, "Duration"),
      cell(withSub(thread.calls, thread.subAgentCalls), true, "Calls"),
      cell(withSub(thread.failed, thread.subAgentFailed), true, "Failed"),
      cell(withSub(thread.tokens, thread.subAgentTokens), true, "Tokens"),
      cell(String(thread.costText || "—"), true, "Cost"),
      cell(status, false, "Status"),
    );
    return tr;
  }

  function groupRow(project) {
    const tr = el("tr", undefined, "tv-group");
    const th = el("th", project || NO_PROJECT);
    th.scope = "rowgroup";
    th.colSpan = COLUMNS.length;
    tr.append(th);
    return tr;
  }

  // ------------------------------------------------------------------ the listing's view
  function sortValue(thread, key) {
    if (key === "models") return models(thread);
    if (key === "costUsd") return typeof thread.costUsd === "number" ? thread.costUsd : -1;
    const value = thread[key];
    if (typeof value === "number") return value;
    return value == null ? "" : String(value).toLowerCase();
  }

  function compare(a, b) {
    const x = sortValue(a, state.sort);
    const y = sortValue(b, state.sort);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return state.descending ? -order : order;
  }

  function chosen() {
    const since = filters.since.value;
    const kept = state.threads.filter(
      (t) =>
        (!filters.agent.value || t.agent === filters.agent.value) &&
        (!filters.project.value || (t.project || NO_PROJECT) === filters.project.value) &&
        (!filters.status.value || t.status === filters.status.value) &&
        (!since || String(t.startedAt).slice(0, 10) >= since),
    );
    kept.sort(compare);
    if (!filters.group.checked) return kept;
    const first = new Map();
    kept.forEach((t, i) => first.has(t.project || "") || first.set(t.project || "", i));
    return kept
      .map((t, i) => [first.get(t.project || ""), i, t])
      .sort((p, q) => p[0] - q[0] || p[1] - q[1])
      .map((p) => p[2]);
  }

  function options(select, values) {
    const current = select.value;
    const all = el("option", "all");
    all.value = "";
    select.replaceChildren(all, ...values.map((v) => Object.assign(el("option", v), { value: v })));
    select.value = values.includes(current) ? current : "";
  }

  function head() {
    const tr = document.createElement("tr");
    for (const [key, label, numeric] of COLUMNS) {
      const th = el("th", undefined, numeric ? "tv-num" : undefined);
      th.scope = "col";
      th.dataset.key = key;
      const sorted = state.sort === key;
      th.setAttribute("aria-sort", sorted ? (state.descending ? "descending" : "ascending") : "none");
      const button = el("button", label + (sorted ? (state.descending ? " ▼" : " ▲") : ""));
      button.type = "button";
      button.addEventListener("click", () => {
        state.descending = sorted ? !state.descending : numeric || key === "startedAt";
        state.sort = key;
        state.page = 0;
        draw();
      });
      th.append(button);
      tr.append(th);
    }
    return tr;
  }

  function pagerButton(label, page, enabled) {
    const button = el("button", label);
    button.type = "button";
    button.disabled = !enabled;
    button.addEventListener("click", () => goPage(page));
    return button;
  }

  function draw() {
    const list = chosen();
    const pages = Math.max(1, Math.ceil(list.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    const start = state.page * PAGE;
    const shown = list.slice(start, start + PAGE);
    const pager = el("p", undefined, "tv-pager");
    pager.id = "tv-pager";
    pager.setAttribute("aria-live", "polite");
    pager.append(
      pagerButton("Previous", state.page - 1, state.page > 0),
      ` Sessions ${list.length ? start + 1 : 0}–${start + shown.length} of ${list.length} `,
      pagerButton("Next", state.page + 1, state.page < pages - 1),
    );
    if (!state.threads.length) {
      holder.replaceChildren(el("p", "No threads yet.", "tv-empty"));
    } else {
      const table = el("table", undefined, "tv-index");
      table.createTHead().append(head());
      const body = table.createTBody();
      let project = null;
      shown.forEach((t, i) => {
        if (filters.group.checked && (t.project || "") !== project) {
          project = t.project || "";
          body.append(groupRow(project));
        }
        body.append(row(t, i));
      });
      holder.replaceChildren(table, pager);
    }
    holder.dataset.threads = String(state.threads.length);
    holder.dataset.shown = String(list.length);
    holder.dispatchEvent(new CustomEvent("tv:index-changed", { bubbles: true }));
  }

  function goPage(page) {
    state.page = Math.max(0, page);
    state.cursor = -1;
    draw();
  }

  function take(threads) {
    state.threads = threads;
    const uniq = (key) => [...new Set(threads.map(key))].sort();
    options(filters.agent, uniq((t) => String(t.agent || "")));
    options(filters.project, uniq((t) => String(t.project || NO_PROJECT)));
    draw();
  }

  // ------------------------------------------------------------------ search every session
  const find = $("tv-find");
  const input = $("tv-find-input");
  const found = $("tv-found");
  find.addEventListener("submit", async (event) => {
    event.preventDefault();
    const q = input.value.trim();
    if (!q) return;
    found.replaceChildren(el("p", "Searching…"));
    let answer;
    try {
      const response = await fetch(`/api/search?q=${encodeURIComponent(q)}&limit=50`);
      answer = await response.json();
    } catch {
      answer = { supported: false, reason: "the search failed" };
    }
    const titles = new Map(state.threads.map((t) => [t.id, t.title]));
    if (!answer.supported) {
      found.replaceChildren(el("p", answer.reason || answer.error || "no search here"));
      return;
    }
    const list = el("ol", undefined, "tv-hits");
    for (const hit of answer.results || []) {
      const link = el("a", titles.get(hit.threadId) || hit.threadId);
      const at = hit.elementId ? `#${encodeURIComponent(hit.elementId)}` : "";
      link.href = `/threads/${encodeURIComponent(hit.threadId)}${at}`;
      const item = el("li");
      item.append(link, " — ", el("span", hit.snippet || "", "tv-snippet"));
      list.append(item);
    }
    const count = (answer.results || []).length;
    found.dataset.hits = String(count);
    found.replaceChildren(el("h2", `${count} match${count === 1 ? "" : "es"} for “${q}”`), list);
  });

  // ------------------------------------------------------------------ keys, as on the thread page
  const keys = $("tv-keys");
  function move(step) {
    const rows = holder.querySelectorAll("tbody tr[data-thread]");
    if (!rows.length) return;
    state.cursor = Math.max(0, Math.min(rows.length - 1, state.cursor + step));
    rows[state.cursor].querySelector("a").focus();
  }
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if ((keys && keys.open) || (target instanceof Element && target.closest("input, select, textarea"))) return;
    const actions = {
      j: () => move(1),
      k: () => move(-1),
      n: () => goPage(state.page + 1),
      N: () => goPage(state.page - 1),
      "/": () => input.focus(),
      "?": () => keys && keys.showModal(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  for (const control of Object.values(filters)) control.addEventListener("change", () => goPage(0));
  $("tv-filters").hidden = false;
  const source = new EventSource("/api/threads/follow");
  source.addEventListener("threads", (event) => take(JSON.parse(event.data).threads || []));
  source.onopen = () => holder.setAttribute("data-connected", "true");
  source.onerror = () => holder.setAttribute("data-connected", "false");
})();
