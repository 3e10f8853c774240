// toolview decide: Allow / Deny on a call that waits for a person (issue 26), on the live page.
// A waiting call is the one the server drew with data-state="needs_input" (its call ledger:
// nothing is decided here). Each gets a small form: a message (optional), Allow, Deny. The
// decision goes to POST …/calls/{call}/decision with the page's token (the <meta> the server
// drew, bound to this browser's sign-in: server.guard.page_token) and an Idempotency-Key, so a
// retry cannot decide twice. The receipt is not drawn here: the server's SSE carries the
// tool-decision, live.js redraws the call, and the redrawn call no longer waits, so its
// form is gone. The tab's title says "(N waiting)"; a browser notification is asked for
// only when the reader clicks "Notify me", never by itself. Keys: a (allow) and d (deny)
// on the focused waiting call, w (next waiting call). Text only, never markup.
"use strict";
(() => {
  const root = document.getElementById("tv-live");
  const meta = document.querySelector('meta[name="toolview-page-token"]');
  if (!root || root.dataset.waiting === "true") return;
  const token = meta ? meta.getAttribute("content") : null;
  const base = `/api/threads/${encodeURIComponent(root.dataset.thread || "")}`;
  const statusLine = document.getElementById("tv-status");
  const WAITING = 'article.tv-call[data-state="needs_input"]';
  const PREFIX = "tv-call-";
  const title = document.title;
  const seen = new Set(); // element ids of waiting calls already announced
  let notifyButton = null;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // render.html.ids spells every character outside [A-Za-z0-9-] as _hex_; an id hashed
  // for its length ("h-…") cannot be read back, and such a call is decided elsewhere (as is
  // one named "." or "..")
  function callIdOf(article) {
    const spelled = article.id.slice(PREFIX.length);
    if (!article.id.startsWith(PREFIX) || spelled.startsWith("h-")) return null;
    const id = spelled.replace(/_([0-9a-f]{1,6})_/g, (_, hex) =>
      String.fromCodePoint(parseInt(hex, 16)),
    );
    return id === "." || id === ".." ? null : id; // a URL would resolve them away

  }

  function idempotencyKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function decide(form, decision) {
    if (form.dataset.busy === "true") return;
    const article = form.closest("article");
    const callId = article && callIdOf(article);
    if (!callId) return;
    const said = form.querySelector("input").value.trim();
    const body = { decision, ...(said ? { message: said } : {}) };
    form.dataset.busy = "true";
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    const note = form.querySelector(".tv-decide-note");
    note.textContent = decision === "allow" ? "Allowing…" : "Denying…";
    try {
      const response = await fetch(`${base}/calls/${encodeURIComponent(callId)}/decision`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-toolview-page-token": token,
          "idempotency-key": form.dataset.key,
        },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
      form.dataset.decided = decision;
      note.textContent = decision === "allow" ? "Allowed." : "Denied.";
      if (statusLine) statusLine.textContent = `${note.textContent} The receipt follows.`;
    } catch (error) {
      note.textContent = `Not decided: ${error.message}`;
      for (const b of form.querySelectorAll("button")) b.disabled = false;
    } finally {
      form.dataset.busy = "false";
    }
  }

  function formFor(article) {
    const tool = article.dataset.tool || "this call";
    const form = element("form", "tv-decide");
    form.setAttribute("aria-label", `Decide: ${tool}`);
    form.dataset.key = idempotencyKey(); // one per form: a retry replays, never decides twice
    const fieldId = `${article.id}-message`;
    const label = element("label", "", "Message (optional)");
    label.htmlFor = fieldId;
    const input = element("input");
    input.id = fieldId;
    input.type = "text";
    input.maxLength = 2000;
    input.autocomplete = "off";
    const allow = element("button", "tv-decide-allow", "Allow");
    const deny = element("button", "tv-decide-deny", "Deny");
    allow.type = deny.type = "button";
    allow.setAttribute("aria-keyshortcuts", "a");
    deny.setAttribute("aria-keyshortcuts", "d");
    allow.addEventListener("click", () => decide(form, "allow"));
    deny.addEventListener("click", () => decide(form, "deny"));
    form.addEventListener("submit", (event) => event.preventDefault());
    const note = element("span", "tv-decide-note");
    form.append(label, input, allow, deny, note);
    return form;
  }

  function focusCall(article) {
    const summary = article.querySelector("summary");
    (summary || article).focus({ preventScroll: true });
    article.scrollIntoView({ block: "start" });
  }

  function notify(fresh) {
    if (!document.hidden || !("Notification" in window)) return;
    if (Notification.permission !== "granted") return;
    const tool = fresh[0].dataset.tool || "a call";
    new Notification("toolview: a call waits for you", { body: `${tool} · ${title}` });
  }

  function offerNotifications() {
    if (notifyButton || !("Notification" in window) || Notification.permission !== "default") {
      return;
    }
    notifyButton = element("button", "tv-notify", "Notify me when a call waits");
    notifyButton.type = "button";
    notifyButton.addEventListener("click", async () => {
      const answer = await Notification.requestPermission(); // on this click, never by itself
      notifyButton.textContent =
        answer === "granted" ? "Notifications on" : "Notifications refused";
      notifyButton.disabled = true;
    });
    if (statusLine) statusLine.after(notifyButton);
  }

  function scan() {
    const waiting = Array.from(root.querySelectorAll(WAITING));
    const fresh = waiting.filter((article) => !seen.has(article.id));
    for (const article of waiting) {
      seen.add(article.id);
      if (token && callIdOf(article) && !article.querySelector(":scope > form.tv-decide")) {
        article.append(formFor(article));
      }
    }
    document.title = waiting.length ? `(${waiting.length} waiting) ${title}` : title;
    root.dataset.waitingCalls = String(waiting.length); // the tests wait on this
    if (!fresh.length) return;
    offerNotifications();
    notify(fresh);
    const active = document.activeElement;
    if (!active || active === document.body) focusCall(fresh[0]); // never steals the reader's
  }

  function typing(target) {
    if (!(target instanceof Element)) return false;
    if (target.isContentEditable || target.closest("textarea, select")) return true;
    return target.localName === "input" && !["checkbox", "radio", "button"].includes(target.type);
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target) || document.querySelector("dialog[open]")) return;
    const here = document.activeElement && document.activeElement.closest(WAITING);
    if (event.key === "w") {
      const waiting = Array.from(root.querySelectorAll(WAITING));
      if (!waiting.length) return;
      event.preventDefault();
      focusCall(waiting[(waiting.indexOf(here) + 1) % waiting.length]);
      return;
    }
    const form = here && here.querySelector(":scope > form.tv-decide");
    if (!form || (event.key !== "a" && event.key !== "d")) return;
    event.preventDefault();
    decide(form, event.key === "a" ? "allow" : "deny");
  });

  root.addEventListener("tv:calls-changed", scan);
  scan();
})();
