/// `GET /` on `mediaparse serve`: a page to try the parser in a browser. Self-contained (no script, style or
/// font from another host: the service is offline), it talks to the same server's `POST /parse` and
/// `GET /locales`. Each result shows the intent, the slots (their words highlighted in the utterance, from
/// `spans`), the N-best readings and the explanation of why the first won (`explain`).
///
/// `?text=…&locale=…` fills the form and parses at once (a link to a result can be shared); `&open` unfolds
/// the first result's other readings and explanation.
enum Playground {
    static let page = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mediaparse playground</title>
<style>
  :root { --ink: #1d2330; --muted: #667085; --line: #d9dee7; --accent: #2f5bd3; }
  * { box-sizing: border-box; }
  body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
         margin: 0; background: #f6f7fa; }
  header { padding: 14px 24px; background: #fff; border-bottom: 1px solid var(--line); }
  header h1 { font-size: 18px; margin: 0; }
  header p { margin: 2px 0 0; color: var(--muted); font-size: 13px; }
  main { max-width: 980px; margin: 0 auto; padding: 18px 24px 40px; }
  form { display: grid; grid-template-columns: 1fr auto; gap: 10px; align-items: start; }
  textarea { width: 100%; min-height: 74px; font: inherit; padding: 8px 10px; border: 1px solid var(--line);
             border-radius: 6px; resize: vertical; }
  .controls { display: flex; flex-direction: column; gap: 8px; min-width: 180px; }
  label { font-size: 12px; color: var(--muted); display: flex; flex-direction: column; gap: 2px; }
  select, input[type=number] { font: inherit; padding: 4px 6px; border: 1px solid var(--line); border-radius: 6px; }
  button { font: inherit; padding: 7px 12px; border: 0; border-radius: 6px; background: var(--accent); color: #fff;
           cursor: pointer; }
  .hint { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
  .result { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-top: 14px; }
  .utterance { font-size: 17px; margin-bottom: 6px; }
  .utterance mark { border-radius: 4px; padding: 1px 2px; }
  .utterance mark sub { font-size: 10px; color: #344054; margin-left: 2px; }
  .intent { font-weight: 600; }
  .intent.none { color: var(--muted); font-weight: 400; }
  .score { color: var(--muted); font-size: 12px; margin-left: 6px; }
  table { border-collapse: collapse; margin: 6px 0; font-size: 14px; }
  td { padding: 2px 12px 2px 0; vertical-align: top; }
  td.key { color: var(--muted); font-family: ui-monospace, Menlo, monospace; font-size: 13px; }
  details { margin-top: 6px; }
  summary { cursor: pointer; color: var(--accent); font-size: 13px; }
  pre { background: #f3f5f9; padding: 8px; border-radius: 6px; overflow-x: auto; font-size: 12px; }
  .error { color: #b42318; }
  ol.alternatives { margin: 4px 0; padding-left: 20px; font-size: 14px; }
</style>
</head>
<body>
<header>
  <h1>mediaparse playground</h1>
  <p>Type spoken media requests, one a line. Everything runs on this server; nothing leaves it.</p>
</header>
<main>
  <form id="form">
    <div>
      <textarea id="text" name="text" spellcheck="false" autofocus
        placeholder="play the newest episode of Radiolab at double speed&#10;turn it up in the kitchen"></textarea>
      <p class="hint">Ctrl+Enter parses. Each line is one utterance.</p>
    </div>
    <div class="controls">
      <label>Locale <select id="locale" name="locale"></select></label>
      <label>Other readings <input id="alternatives" name="alternatives" type="number" min="0" max="20" value="3"></label>
      <button id="parse" type="submit">Parse</button>
    </div>
  </form>
  <div id="results" aria-live="polite"></div>
</main>
<script>
"use strict";
const colours = ["#fde68a", "#bbf7d0", "#bfdbfe", "#fecaca", "#ddd6fe", "#fed7aa", "#a5f3fc", "#fbcfe8"];
const $ = (id) => document.getElementById(id);

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

// Every filled value of a result, flattened to dotted keys ("mediaSearch.mediaName"), with its display.
function slots(result) {
  const out = [];
  const skip = new Set(["utterance", "locale", "intent", "spans", "score", "explain", "alternatives", "vocabulary"]);
  (function walk(value, path) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const k of Object.keys(value).sort()) walk(value[k], path ? path + "." + k : k);
    } else if (path && !skip.has(path.split(".")[0])) {
      out.push([path, Array.isArray(value) ? value.join(", ") : String(value)]);
    }
  })(result, "");
  return out;
}

// The utterance with each span highlighted; spans count Unicode scalars, as Array.from does.
function highlighted(utterance, spans) {
  const chars = Array.from(utterance);
  const entries = Object.entries(spans || {}).sort((a, b) => a[1][0] - b[1][0]);
  const node = element("div", { class: "utterance" });
  let at = 0;
  entries.forEach(([key, [start, end]], i) => {
    if (start < at) return;  // overlapping spans: the first is shown
    node.append(chars.slice(at, start).join(""));
    const mark = element("mark", { "data-slot": key, style: "background:" + colours[i % colours.length] },
                         chars.slice(start, end).join(""), element("sub", {}, key.split(".").pop()));
    node.append(mark);
    at = end;
  });
  node.append(chars.slice(at).join(""));
  return node;
}

function slotTable(result) {
  const table = element("table", { class: "slots" });
  for (const [key, value] of slots(result)) {
    table.append(element("tr", {}, element("td", { class: "key" }, key), element("td", { class: "value" }, value)));
  }
  return table;
}

function intentLine(result) {
  const line = element("div", {});
  line.append(element("span", { class: "intent" + (result.intent ? "" : " none") }, result.intent || "not a media request"));
  if (result.score !== undefined) line.append(element("span", { class: "score" }, "score " + result.score));
  return line;
}

function render(result) {
  const card = element("section", { class: "result" });
  card.append(highlighted(result.utterance, result.spans), intentLine(result));
  if (result.error) card.append(element("div", { class: "error" }, result.error));
  card.append(slotTable(result));
  if (result.alternatives && result.alternatives.length) {
    const list = element("ol", { class: "alternatives" });
    for (const alt of result.alternatives) {
      const text = (alt.intent || "not media") + "  " + slots(alt).map(([k, v]) => k.split(".").pop() + "=" + v).join("  ");
      list.append(element("li", {}, text + "  (score " + alt.score + ")"));
    }
    card.append(element("details", { class: "nbest" }, element("summary", {}, "Other readings (" + result.alternatives.length + ")"), list));
  }
  if (result.explain) {
    const e = result.explain;
    const rank = "rank " + JSON.stringify(e.rank) + ": literal words, list words, free-text words, free-text slots";
    const words = element("table", {});
    for (const w of e.words) {
      words.append(element("tr", {}, element("td", { class: "key" }, w.matched), element("td", {}, w.text || "(assumed)"),
                           element("td", {}, w.value || "")));
    }
    card.append(element("details", { class: "explain" },
      element("summary", {}, "Why this reading"),
      element("div", {}, "sentence ", element("code", {}, e.sentence), " at " + e.source),
      element("div", {}, rank), words));
  }
  const raw = Object.assign({}, result);
  delete raw.explain;
  card.append(element("details", {}, element("summary", {}, "JSON"), element("pre", {}, JSON.stringify(raw, null, 2))));
  return card;
}

async function parse(event) {
  if (event) event.preventDefault();
  const texts = $("text").value.split("\n").map((t) => t.trim()).filter((t) => t.length);
  const results = $("results");
  if (!texts.length) { results.replaceChildren(); return; }
  const body = { texts, locale: $("locale").value || undefined, explain: true,
                 alternatives: Math.max(0, Math.min(20, parseInt($("alternatives").value || "0", 10) || 0)) };
  try {
    const response = await fetch("parse", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) { results.replaceChildren(element("div", { class: "error result" }, answer.error || response.statusText)); return; }
    results.replaceChildren(...answer.map(render));
    // ?open: the first result's readings and explanation unfolded (for a screenshot or a shared link).
    if (new URLSearchParams(location.search).has("open")) {
      results.querySelectorAll(".result:first-child details.nbest, .result:first-child details.explain").forEach((d) => d.open = true);
    }
  } catch (error) {
    results.replaceChildren(element("div", { class: "error result" }, "The server did not answer: " + error));
  }
}

async function start() {
  const query = new URLSearchParams(location.search);
  try {
    const answer = await (await fetch("locales")).json();
    for (const l of answer.locales) $("locale").append(element("option", { value: l }, l));
    $("locale").value = query.get("locale") || answer.default;
  } catch (error) {
    $("results").replaceChildren(element("div", { class: "error result" }, "Cannot read the locales: " + error));
  }
  $("form").addEventListener("submit", parse);
  $("text").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) parse(e); });
  if (query.get("text")) { $("text").value = query.get("text"); parse(); }
  document.body.setAttribute("data-ready", "true");
}
start();
</script>
</body>
</html>
"""#
}
