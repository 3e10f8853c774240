// toolview live page: "follow newest". While the reader is at the bottom of the page, the
// page stays there as calls, messages and running output arrive; once they scroll up, it
// stays where they are and a pill offers the way back ("Jump to newest") when something new
// arrives below. Whether the page follows is said on #tv-live as data-following (true/false)
// so a test (and a reader's tools) can wait on it. What changed is read from the DOM itself
// (a MutationObserver on the thread), so every way live.js draws is followed alike.
"use strict";
(() => {
  const root = document.getElementById("tv-live");
  if (!root || root.dataset.waiting === "true") return;
  const SLACK = 48; // px from the bottom still counted as "at the bottom"
  const pill = document.createElement("button");
  pill.type = "button";
  pill.className = "tv-follow-pill";
  pill.textContent = "\u2193 Jump to newest";
  pill.hidden = true;
  document.body.appendChild(pill);
  let following = true;
  // the newest element of the thread: a new one below is what the pill offers to jump to
  // (calls loaded above, "load more", are not new)
  const newest = () => root.querySelector(".tv-thread")?.lastElementChild ?? null;
  let seen = newest();

  const atBottom = () =>
    window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SLACK;

  function setFollowing(value) {
    following = value;
    root.dataset.following = String(value);
    if (value) pill.hidden = true;
  }

  function toBottom() {
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
  }

  window.addEventListener(
    "scroll",
    () => {
      // a scroll the page made itself (following) leaves it at the bottom: still following
      setFollowing(atBottom());
    },
    { passive: true },
  );

  new MutationObserver(() => {
    const last = newest();
    const arrived = last !== seen;
    seen = last;
    if (following) toBottom();
    else if (arrived) pill.hidden = false;
  }).observe(root, { childList: true, subtree: true, characterData: true });

  pill.addEventListener("click", () => {
    toBottom();
    setFollowing(true);
  });
  setFollowing(atBottom());
})();
