// toolview live page: MCP Apps. A call whose result is an app is drawn (render/html/kinds/
// mcp_app.py) as <iframe class="tv-app" sandbox="allow-scripts" srcdoc=…>. A srcdoc document
// inherits this page's policy, which refuses the app's inline scripts, so here each frame is
// pointed at the server's app route instead (its own sandboxed policy, same sandbox attribute:
// an opaque origin). Then this page is the app's host on the MCP Apps postMessage bridge:
// it answers ui/initialize, sends the tool's input and result (ui/notifications/tool-input,
// tool-result) from the frame's data attributes, and refuses the app's own tools/call with a
// visible note — this page replays a call, it never runs one. A message counts only when its
// event.source is one of these frames' windows; nothing else is trusted or answered.
"use strict";
(() => {
  const root = document.getElementById("tv-live");
  if (!root) return;
  const REFUSED = "toolview replays this call: the app's own tool calls are refused";

  function callId(frame) {
    const article = frame.closest('[id^="tv-call-"]');
    if (!article) return null;
    if (article.dataset.callId) return article.dataset.callId;
    const spelled = article.id.replace(/^tv-call-/, "");
    if (/^h-[0-9a-f]{32}$/.test(spelled)) return null;
    return spelled.replace(/_([0-9a-f]{1,6})_/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)));
  }

  function adopt(frame) {
    // A fresh frame takes this one's place, created with the route as its src and never a
    // srcdoc. Switching the drawn frame in place raced: when its srcdoc navigation was still
    // in flight (the page busy, the machine loaded), Chromium committed that srcdoc after the
    // new src was set and never loaded the route, so the app never ran and never said hello.
    if (frame.dataset.tvHosted) return;
    const id = callId(frame);
    if (!id) return;
    const hosted = frame.cloneNode(false);
    hosted.removeAttribute("srcdoc");
    hosted.setAttribute("sandbox", "allow-scripts"); // never widened, whatever the markup said
    hosted.dataset.tvHosted = "loading"; // set before it is inserted: the observer skips it
    const thread = encodeURIComponent(root.dataset.thread || "");
    hosted.src = `/api/threads/${thread}/calls/${encodeURIComponent(id)}/app`;
    frame.replaceWith(hosted);
  }

  function parsed(frame, name) {
    try {
      const value = JSON.parse(frame.dataset[name] || "{}");
      return value && typeof value === "object" ? value : {};
    } catch {
      return {};
    }
  }

  function note(frame, text) {
    const figure = frame.closest(".tv-mcp-app");
    if (!figure || figure.querySelector(".tv-app-note")) return;
    const line = document.createElement("p");
    line.className = "tv-app-note tv-meta";
    line.setAttribute("role", "status");
    line.textContent = text;
    figure.append(line);
  }

  function send(frame, message) {
    // the frame's origin is opaque ("null"): "*" is the only target that reaches it, and
    // only this frame's own window is posted to
    frame.contentWindow.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  function answer(frame, message) {
    const { id, method } = message;
    const request = id !== undefined && id !== null;
    if (method === "ui/initialize" && request) {
      const theme = document.documentElement.dataset.theme || "light";
      send(frame, {
        id,
        result: {
          protocolVersion: "2026-01-26",
          hostInfo: { name: "toolview", version: "1" },
          hostCapabilities: {},
          hostContext: { theme, displayMode: "inline" },
        },
      });
    } else if (method === "ui/notifications/initialized") {
      frame.dataset.tvHosted = "ready";
      send(frame, { method: "ui/notifications/tool-input", params: { arguments: parsed(frame, "toolInput") } });
      send(frame, { method: "ui/notifications/tool-result", params: parsed(frame, "toolResult") });
    } else if (method === "ui/notifications/size-changed") {
      const height = Number((message.params || {}).height);
      if (Number.isFinite(height)) frame.height = String(Math.min(Math.max(height, 80), 2000));
    } else if (method === "ping" && request) {
      send(frame, { id, result: {} });
    } else if (request) {
      if (method === "tools/call") note(frame, REFUSED);
      const text = method === "tools/call" ? REFUSED : "not supported by toolview";
      send(frame, { id, error: { code: -32601, message: text } });
    }
  }

  window.addEventListener("message", (event) => {
    // a frame's WindowProxy stays the same across its loads: the one that sent it, if any
    const hosted = document.querySelectorAll("iframe.tv-app[data-tv-hosted]");
    const frame = [...hosted].find((f) => f.contentWindow === event.source);
    if (!frame) return;
    const message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if (typeof message.method !== "string") return;
    answer(frame, message);
  });

  const adoptAll = () => document.querySelectorAll("iframe.tv-app").forEach(adopt);
  new MutationObserver(adoptAll).observe(document.body, { childList: true, subtree: true });
  adoptAll();
})();
