// toolview live page: follows the thread over SSE (live mode) and patches it in place.
// Completed calls are fetched as server-rendered fragments; only running output is
// drawn here, always as text (textContent), never as markup.
"use strict";
(() => {
  const root = document.getElementById("tv-live");
  if (!root) return;
  const thread = root.dataset.thread;
  const base = `/api/threads/${encodeURIComponent(thread)}`;
  const statusLine = document.getElementById("tv-status");
  const outputs = new Map(); // toolCallId -> accumulated text shown so far
  const elements = new Map(); // toolCallId -> element id of its <article>
  const running = new Map(); // toolCallId -> tool name
  const SHOWN = 200000; // characters of live output kept in the page
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

  function setStatus() {
    const names = [...new Set(running.values())];
    statusLine.textContent = names.length ? `running ${names.join(", ")}` : "no call running";
  }

  function threadContainer() {
    return root.querySelector(".tv-thread") || root;
  }

  async function fetchHtml(path) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return null;
    const template = document.createElement("template");
    template.innerHTML = await response.text();
    return template.content;
  }

  async function refreshCall(callId) {
    const fragment = await fetchHtml(`${base}/calls/${encodeURIComponent(callId)}/html`);
    const article = fragment && fragment.querySelector("article");
    if (!article) return null;
    const existing = document.getElementById(article.id);
    if (existing) existing.replaceWith(article);
    else threadContainer().appendChild(article);
    elements.set(callId, article.id);
    return article;
  }

  async function refreshThread() {
    const fragment = await fetchHtml(`${base}/html`);
    const fresh = fragment && fragment.querySelector(".tv-thread");
    if (!fresh) return;
    threadContainer().replaceWith(fresh);
    for (const [callId, text] of outputs) drawOutput(callId, text);
  }

  function drawOutput(callId, text) {
    const article = elements.has(callId) ? document.getElementById(elements.get(callId)) : null;
    const body = article && article.querySelector(".tv-body");
    if (!body) return false;
    let pre = body.querySelector(".tv-live-output");
    if (!pre) {
      pre = document.createElement("pre");
      pre.className = "tv-live-output";
      pre.setAttribute("aria-label", "live output");
      const indicator = body.querySelector(".tv-pending");
      body.replaceChildren(...(indicator ? [indicator] : []), pre);
    }
    pre.textContent = text.length > SHOWN ? text.slice(-SHOWN) : text;
    return true;
  }

  async function onOutput(data) {
    const callId = data.toolCallId;
    const before = outputs.get(callId) ?? "";
    let text = data.text;
    if (data.op === "append") text = before + data.text;
    else if (data.op === "slide") text = dropCodePoints(before, data.drop) + data.text;
    if (data.complete) {
      outputs.delete(callId);
      running.delete(callId);
      await refreshCall(callId);
      return;
    }
    outputs.set(callId, text);
    running.set(callId, data.toolName);
    if (!drawOutput(callId, text)) {
      await refreshCall(callId);
      drawOutput(callId, text);
    }
  }

  async function handle(data) {
    switch (data.kind) {
      case "tool-output":
        await onOutput(data);
        break;
      case "tool-call":
        running.set(data.toolCallId, data.toolName);
        await refreshCall(data.toolCallId);
        break;
      case "tool-result":
      case "tool-refused":
        outputs.delete(data.toolCallId);
        running.delete(data.toolCallId);
        await refreshCall(data.toolCallId);
        break;
      case "run-ended":
        running.clear();
        outputs.clear();
        await refreshThread();
        break;
      default:
        await refreshThread();
    }
    setStatus();
  }

  const source = new EventSource(`${base}/follow?mode=live&lastEventId=${root.dataset.seq}`);
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    queue = queue.then(() => handle(data)).catch(() => undefined);
  };
  source.onopen = () => root.setAttribute("data-connected", "true");
  source.onerror = () => root.setAttribute("data-connected", "false");
})();
