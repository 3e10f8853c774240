// toolview index: follows GET /api/threads/follow (SSE) and redraws the table of threads
// when the listing changes, in the markup server/page/index.py draws, as elements and text
// only (a title is a redacted, cleaned line of untrusted text: never markup).
"use strict";
(() => {
  const holder = document.getElementById("tv-index");
  if (!holder) return;

  function time(value) {
    const text = String(value);
    const element = document.createElement("time");
    element.dateTime = text;
    element.title = text;
    element.textContent = `${text.replace("T", " ").replace(/Z$/, "").slice(0, 19)} UTC`;
    return element;
  }

  function cell(...children) {
    const td = document.createElement("td");
    td.append(...children);
    return td;
  }

  function number(value) {
    const td = cell(String(Number(value) || 0));
    td.className = "tv-num";
    return td;
  }

  // "13+1": the thread's own count, then its sub-agents' (as `toolview sessions` says it);
  // the whole sentence (`counts`, from the server: contract.counts) is the row's tooltip
  function withSub(own, sub, shown) {
    const td = cell(shown ? `${Number(own) || 0}+${Number(sub) || 0}` : String(Number(own) || 0));
    td.className = "tv-num";
    return td;
  }

  function row(thread) {
    const tr = document.createElement("tr");
    tr.dataset.thread = String(thread.id);
    const link = document.createElement("a");
    link.href = `/threads/${encodeURIComponent(thread.id)}`;
    link.textContent = String(thread.title);
    const subs = Number(thread.subAgentCalls) > 0;
    if (typeof thread.counts === "string") tr.title = thread.counts;
    tr.append(
      cell(link),
      cell(time(thread.startedAt)),
      cell(time(thread.lastActivity)),
      withSub(thread.calls, thread.subAgentCalls, subs),
      number(thread.running),
      withSub(thread.failed, thread.subAgentFailed, subs),
    );
    return tr;
  }

  function table(threads) {
    if (!threads.length) {
      const empty = document.createElement("p");
      empty.className = "tv-empty";
      empty.textContent = "No threads yet.";
      return empty;
    }
    const element = document.createElement("table");
    element.className = "tv-index";
    const head = element.createTHead().insertRow();
    for (const name of ["Thread", "Started", "Last activity", "Calls", "Running", "Failed"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = name;
      head.append(th);
    }
    const body = element.createTBody();
    body.append(...threads.map(row));
    return element;
  }

  const source = new EventSource("/api/threads/follow");
  source.addEventListener("threads", (event) => {
    const threads = JSON.parse(event.data).threads || [];
    holder.replaceChildren(table(threads));
    holder.dataset.threads = String(threads.length);
    holder.dispatchEvent(new CustomEvent("tv:index-changed", { bubbles: true }));
  });
  source.onopen = () => holder.setAttribute("data-connected", "true");
  source.onerror = () => holder.setAttribute("data-connected", "false");
})();
