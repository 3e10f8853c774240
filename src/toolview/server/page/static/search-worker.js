// toolview viewer: the search's matcher, in a Worker of its own (issue 21). A reader's
// regular expression can backtrack for days ((a+)+$ over a run of "a" that ends in another
// character), and a link sets it (?q=…&regex=1): matched on the page's thread it froze the
// tab. Here it freezes only this worker, which viewer.js terminates when it overruns its
// time limit (JavaScript cannot interrupt a running match) and replaces with a fresh one.
// In:  {query, regex, texts: [string], limit}
// Out: {matches: [[text index, start, end], …] (at most `limit`), more} or {error}
"use strict";

function compile(query, regex) {
  // plain text ignores case; a regular expression is taken as written (as the server does)
  const source = regex ? query : query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(source, regex ? "gu" : "giu");
}

self.addEventListener("message", (event) => {
  const { query, regex, texts, limit } = event.data;
  let pattern;
  try {
    pattern = compile(query, regex);
  } catch (error) {
    const said = /^Invalid regular expression/.test(error.message); // V8 says it already
    self.postMessage({ error: said ? error.message : `Invalid regular expression: ${error.message}` });
    return;
  }
  try {
    self.postMessage(matchAll(pattern, texts, limit));
  } catch (error) {
    // a match can throw too (V8's backtracking stack overflows): said, never a silent stop
    self.postMessage({ error: `The search stopped: ${error.message}` });
  }
});

function matchAll(pattern, texts, limit) {
  const matches = [];
  for (let index = 0; index < texts.length; index += 1) {
    for (const match of texts[index].matchAll(pattern)) {
      if (match[0] === "") continue;
      if (matches.length >= limit) return { matches, more: true };
      matches.push([index, match.index, match.index + match[0].length]);
    }
  }
  return { matches, more: false };
}
