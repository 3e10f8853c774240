// toolview index: asks GET /api/threads?offset=&limit=&sort=&order=&agent=&project=&status=&since=
// for the ONE page it shows (PAGE rows, filtered and sorted on the server: server/page/index/
// paging.py), groups it by project and draws it in the markup server/page/index/table.py draws,
// as elements and text only (every field is untrusted text, already redacted and cleaned by the
// server: never markup). Why: at 10,000 sessions the whole listing is megabytes of JSON to
// decode before one page is drawn. GET /api/threads/follow?signal (SSE) only says "changed":
// the current page is asked for again, one request at a time, at most one a second.
// The search box asks /api/search (every session, the log's FTS index) and links each hit to
// its call on the thread page.
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
  const state = { threads: [], total: 0, all: 0, sort: "startedAt", descending: true, page: 0, cursor: -1 };
  state.drawn = { sort: state.sort, descending: state.descending };
  const GAP_MS = 1000; // the least time between two asks the follow stream prompts

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

  // a synced session's machine and user (toolview sync), as its forwarder declared them
  const where = (t) => (t.machine ? ` · ${t.machine}${t.user ? ` (${t.user})` : ""}` : "");

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
      cell(String(thread.agent || "") + where(thread), false, "Agent"),
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

  // ------------------------------------------------------------------ the page asked for
  function query() {
    const params = new URLSearchParams({
      offset: String(state.page * PAGE),
      limit: String(PAGE),
      sort: state.sort,
      order: state.descending ? "desc" : "asc",
      fresh: "0", // the listing the follow stream signals (≤ 1 s old): no second full listing
    });
    for (const name of ["agent", "status"]) if (filters[name].value) params.set(name, filters[name].value);
    const project = filters.project.value;
    if (project) params.set("project", project === NO_PROJECT ? "" : project);
    if (filters.since.value) params.set("since", filters.since.value);
    return `/api/threads?${params}`;
  }

  // the page's sessions, each project together in the order of its first session on the page
  function grouped(threads) {
    if (!filters.group.checked) return threads;
    const first = new Map();
    threads.forEach((t, i) => first.has(t.project || "") || first.set(t.project || "", i));
    return threads
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
      const drawn = state.drawn.sort === key; // the order of the rows drawn, not yet asked
      const down = state.drawn.descending;
      th.setAttribute("aria-sort", drawn ? (down ? "descending" : "ascending") : "none");
      const button = el("button", label + (drawn ? (down ? " ▼" : " ▲") : ""));
      button.type = "button";
      button.addEventListener("click", () => {
        state.descending = sorted ? !state.descending : numeric || key === "startedAt";
        state.sort = key;
        goPage(0);
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
    const pages = Math.max(1, Math.ceil(state.total / PAGE));
    const start = state.page * PAGE;
    const shown = grouped(state.threads);
    const pager = el("p", undefined, "tv-pager");
    pager.id = "tv-pager";
    pager.setAttribute("aria-live", "polite");
    pager.append(
      pagerButton("Previous", state.page - 1, state.page > 0),
      ` Sessions ${state.total ? start + 1 : 0}–${start + shown.length} of ${state.total} `,
      pagerButton("Next", state.page + 1, state.page < pages - 1),
    );
    if (!state.all) {
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
    holder.dataset.threads = String(state.all);
    holder.dataset.shown = String(state.total);
    holder.dispatchEvent(new CustomEvent("tv:index-changed", { bubbles: true }));
  }

  function goPage(page) {
    const last = Math.max(0, Math.ceil(state.total / PAGE) - 1);
    state.page = Math.max(0, Math.min(page, last));
    state.cursor = -1;
    ask();
  }

  // one ask at a time; one asked while another is out is made when it is back (the newest wins)
  const asking = { busy: false, again: false, last: 0, timer: 0 };
  async function ask() {
    if (asking.busy) {
      asking.again = true;
      return;
    }
    asking.busy = true;
    asking.last = Date.now();
    const asked = { sort: state.sort, descending: state.descending };
    try {
      const response = await fetch(query());
      if (response.ok) take(await response.json(), asked);
    } finally {
      asking.busy = false;
      if (asking.again) {
        asking.again = false;
        ask();
      }
    }
  }

  // the follow stream's "changed": the page asked again, at most once a GAP_MS
  function changed() {
    if (asking.timer) return;
    const wait = Math.max(0, asking.last + GAP_MS - Date.now());
    asking.timer = setTimeout(() => {
      asking.timer = 0;
      ask();
    }, wait);
  }

  function take(answer, asked) {
    const pages = Math.max(1, Math.ceil(answer.total / PAGE));
    if (state.page > pages - 1 && answer.total) {
      goPage(pages - 1); // the listing shrank under a filter: its last page instead
      return;
    }
    state.drawn = asked;
    state.threads = answer.threads || [];
    state.total = answer.total || 0;
    state.all = answer.all || 0;
    options(filters.agent, (answer.agents || []).map(String));
    options(filters.project, (answer.projects || []).map((p) => String(p || NO_PROJECT)));
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
    if (!answer.supported) {
      found.replaceChildren(el("p", answer.reason || answer.error || "no search here"));
      return;
    }
    const list = el("ol", undefined, "tv-hits");
    for (const hit of answer.results || []) {
      const link = el("a", hit.title || hit.threadId); // the index card's title, any page's
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
  // the first page at once, not after the stream's first "changed" (its connection and the
  // server's first comparison cost 50-200 ms of a warm first view at 10,000 sessions)
  ask();
  const source = new EventSource("/api/threads/follow?signal");
  source.addEventListener("changed", changed);
  source.onopen = () => holder.setAttribute("data-connected", "true");
  source.onerror = () => holder.setAttribute("data-connected", "false");
})();
