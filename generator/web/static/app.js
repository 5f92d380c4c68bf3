// The editor's only script: send each change with the build to the server, show what comes back.
// The server validates and renders; nothing here knows a rule or a game.
// "Go back" links (an error page's): the browser's Back, when there is a page to go back to.
// A script, not an href="javascript:...": the Content-Security-Policy runs no inline script.
document.addEventListener("click", (e) => {
  const back = e.target.closest && e.target.closest("a[data-back]");
  if (back && history.length > 1) { e.preventDefault(); history.back(); }
});

// The few words this script writes, in the page's language: the page gives them where it is not
// English (generator/web/words.py, JS_WORDS); `{name}` is filled in from `values`.
const pnpWords = (() => {
  const el = document.getElementById("pnp-words");
  return el ? JSON.parse(el.textContent) : {};
})();
function tr(text, values) {
  return (pnpWords[text] || text).replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
}

(function () {
  "use strict";
  const root = document.querySelector("[data-editor]");
  if (!root) return;
  const pack = root.dataset.pack;
  const box = document.getElementById("editor");
  const flash = document.getElementById("flash");
  const state = { char: null, piece: null, stem: root.dataset.stem || null, busy: Promise.resolve() };

  function doc() { return JSON.parse(document.getElementById("build-doc").textContent); }

  function readState() {
    const s = box.querySelector(".editor-state");
    if (!s) return;
    state.char = s.dataset.targetChar === "" ? null : Number(s.dataset.targetChar);
    state.piece = s.dataset.targetPiece === "" ? null : Number(s.dataset.targetPiece);
    const code = s.dataset.code;
    const url = new URL(location.href);
    ["side", "preset", "file", "code"].forEach((k) => url.searchParams.delete(k));
    if (code) url.searchParams.set("code", code);
    if (state.stem) url.searchParams.set("file", state.stem);
    if (code) history.replaceState(null, "", url.pathname + "?" + url.searchParams.toString());
    showBlocked(JSON.parse(s.dataset.blocked || "{}"));
    if (typeof applyFilters === "function" && document.getElementById("pf-owner")) applyFilters();
    const src = document.getElementById("vbar-src"), bar = document.getElementById("vbar");
    if (src && bar) { bar.replaceChildren(src.content.cloneNode(true)); bar.className = "vbar " + src.dataset.legal; }
    showCounts();
  }

  // the server says, per place of a character, why nothing can be added there yet
  function showBlocked(blocked) {
    document.querySelectorAll("details[data-place]").forEach((group) => {
      const why = blocked[group.dataset.place] || "";
      group.querySelectorAll("button.add").forEach((b) => { b.disabled = Boolean(why); b.title = why; });
      const note = group.querySelector(".why");
      if (note) { note.hidden = !why; note.textContent = why ? why.charAt(0).toUpperCase() + why.slice(1) + "." : ""; }
    });
  }

  // `html` is the server's escaped HTML; a message made here is set as text
  function say(html, cls) {
    if (!cls) { flash.innerHTML = html; return; }
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = html;
    flash.replaceChildren(p);
  }

  // undo and redo: the build documents before each change, kept in the page
  const past = [], future = [];
  const undoBtn = document.getElementById("undo"), redoBtn = document.getElementById("redo");
  function showHistory() {
    if (undoBtn) undoBtn.disabled = past.length === 0;
    if (redoBtn) redoBtn.disabled = future.length === 0;
  }

  // `how`: {build: a document to send instead of the page's, history: "undo" | "redo" | undefined}
  async function send(op, how) {
    how = how || {};
    const focused = document.activeElement;
    const key = focused && (focused.dataset.op || focused.id || focused.dataset.change);
    const before = document.getElementById("build-doc").textContent;
    const build = how.build !== undefined ? JSON.parse(how.build) : JSON.parse(before);
    const res = await fetch(`/p/${pack}/edit/apply`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-pnp-fragment": "1" },
      body: JSON.stringify({ build: build, op: op, target: { char: state.char, piece: state.piece }, stem: state.stem }),
    });
    const html = await res.text();
    if (!res.ok) { say(html); return; }
    flash.innerHTML = "";
    box.innerHTML = html;
    const after = document.getElementById("build-doc").textContent;
    if (how.history === "undo") future.push(before);
    else if (how.history === "redo") past.push(before);
    else if (after !== before) { past.push(before); future.length = 0; if (past.length > 200) past.shift(); }
    showHistory();
    readState();
    if (key) {  // keep the keyboard where it was
      const again = [...document.querySelectorAll("[data-op],[id],[data-change]")].find(
        (el) => el.dataset.op === key || el.id === key);
      if (again) again.focus();
    }
  }

  // window.pnpBusy: changes sent and not yet shown (tests wait for 0)
  window.pnpBusy = 0;
  function queue(op, how) {
    window.pnpBusy += 1;
    state.busy = state.busy.then(() => send(op, how)).catch((e) => say(String(e), "error"))
      .finally(() => { window.pnpBusy -= 1; });
    return state.busy;
  }

  document.addEventListener("click", (e) => {
    const el = e.target.closest("button[data-op]");
    if (!el) return;
    e.preventDefault();
    const op = JSON.parse(el.dataset.op);
    if (op.op === "add") {
      if (state.char !== null) op.char = state.char;
      if (state.piece !== null) op.piece = state.piece;
    }
    queue(op);
  });

  document.addEventListener("change", (e) => {
    const el = e.target;
    if (el.id === "target-char" || el.id === "vbar-char") {  // the phone's bar has its own copy
      if (el.value === "new") { state.char = null; state.piece = null; return; }
      state.char = Number(el.value); state.piece = null;
      queue({ op: "view", char: state.char });
    } else if (el.id === "target-piece") {
      state.piece = el.value === "" ? null : Number(el.value);
    } else if (el.dataset.change) {
      const op = JSON.parse(el.dataset.change);
      op.value = el.value;
      queue(op);
    }
  });

  function undo() {
    if (!past.length) return;
    queue({ op: "view", char: state.char }, { build: past.pop(), history: "undo" });
  }
  function redo() {
    if (!future.length) return;
    queue({ op: "view", char: state.char }, { build: future.pop(), history: "redo" });
  }
  if (undoBtn) undoBtn.addEventListener("click", undo);
  if (redoBtn) redoBtn.addEventListener("click", redo);
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA")) return;  // the field's own undo
    const k = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && k === "z") { e.preventDefault(); (e.shiftKey ? redo : undo)(); }
    else if ((e.ctrlKey || e.metaKey) && k === "y") { e.preventDefault(); redo(); }
  });

  // a copy of the build on the page, not yet saved anywhere
  document.addEventListener("click", (e) => {
    if (!e.target.closest("button[data-duplicate]")) return;
    const d = doc();
    d.name = tr("{name} (copy)", { name: d.name }).slice(0, 200);
    state.stem = null;
    queue({ op: "view", char: state.char }, { build: JSON.stringify(d) })
      .then(() => say(tr("This is a copy: save it to keep it."), "notice"));
  });

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (form.matches("[data-print]")) form.querySelector("input[name=build]").value = JSON.stringify(doc());
  });

  document.addEventListener("click", async (e) => {
    const el = e.target.closest("button[data-save]");
    if (!el) return;
    await state.busy;
    const res = await fetch(`/p/${pack}/builds/save`, {
      method: "POST", headers: { "content-type": "application/json", "x-pnp-fragment": "1" },
      body: JSON.stringify({ build: doc(), stem: el.dataset.save === "same" ? state.stem : null }),
    });
    if (res.ok) {
      const data = await res.json();
      state.stem = data.stem;
      say(data.message, "notice");
      readState();
    } else {
      say(await res.text());
    }
  });

  // ---- the card picker: copies in the character cards go to, filters, sort, keys, preview ----

  const side = { key: root.dataset.baseKey, item: root.dataset.itemKey, many: Boolean(root.dataset.baseMany),
                 attach: root.dataset.attach };

  // where the copies of a card are in character `c`: [{op to take one out}], newest last
  function copiesOf(d, place, card, c) {
    const chars = d.characters || [];
    const out = [];
    if (place === "base" && !side.many) {
      chars.forEach((ch, i) => { if (ch[side.key] === card) out.push({ op: "remove_char", char: i }); });
      return out;
    }
    const ch = chars[c];
    if (!ch) return out;
    if (place === "base") {
      (ch[side.key] || []).forEach((e, j) => { if (e[side.item] === card) out.push({ op: "remove", char: c, place: "base", index: j }); });
    } else if (place === "equipment" && side.attach === "base") {
      (ch[side.key] || []).forEach((e, j) => (e.equipment || []).forEach((id, k) => {
        if (id === card) out.push({ op: "remove", char: c, place: "equipment", piece: j, index: k });
      }));
    } else if (place === "deck") {
      for (let n = (ch.deck || {})[card] || 0; n > 0; n -= 1) out.push({ op: "deck", char: c, card: card, delta: -1 });
    } else {
      (ch[place] || []).forEach((id, k) => { if (id === card) out.push({ op: "remove", char: c, place: place, index: k }); });
    }
    return out;
  }

  // the character a picker card counts for: the one whose base card owns it, else the chosen one
  function charFor(d, li) {
    const owner = li.dataset.ownerId;
    if (owner && li.dataset.place !== "base") {
      const found = [];
      (d.characters || []).forEach((ch, i) => {
        const base = ch[side.key];
        const ids = Array.isArray(base) ? base.map((e) => e[side.item]) : [base];
        if (ids.includes(owner)) found.push(i);
      });
      if (found.length === 1) return found[0];
    }
    return state.char;
  }

  function showCounts() {
    const d = doc();
    document.querySelectorAll(".pick li").forEach((li) => {
      const group = li.closest("details");
      const why = group.querySelector(".why");
      const blocked = Boolean(why && !why.hidden);
      const have = copiesOf(d, li.dataset.place, li.dataset.card, charFor(d, li)).length;
      const most = li.dataset.max === "" ? null : Number(li.dataset.max);
      li.dataset.have = have;
      li.classList.toggle("taken", have > 0);
      li.querySelectorAll("button[data-count]").forEach((b) => {
        b.setAttribute("aria-pressed", String(Number(b.dataset.count) === have));
        b.disabled = blocked;
      });
      const shown = li.querySelector(".have");
      if (shown) shown.textContent = have;
      const less = li.querySelector("button[data-less]");
      if (less) less.disabled = blocked || have === 0;
      const more = li.querySelector("button[data-op]");
      if (more && !blocked) {
        const full = li.dataset.place !== "base" || most === 1 ? most !== null && have >= most : false;
        more.disabled = full;
        more.title = full ? tr("at most {n}", { n: most }) : "";
      }
    });
  }

  function more(li) {
    const counts = li.querySelector(`button[data-count="${Number(li.dataset.have || 0) + 1}"]`);
    const add = counts || li.querySelector("button[data-op]");
    if (add && !add.disabled) add.click();
  }

  function fewer(li) {
    const counts = li.querySelector(`button[data-count="${Number(li.dataset.have || 0) - 1}"]`);
    const less = counts || li.querySelector("button[data-less]");
    if (less && !less.disabled) less.click();
  }

  document.addEventListener("click", (e) => {
    const el = e.target.closest(".pick button[data-count], .pick button[data-less]");
    if (!el || el.disabled) return;
    const li = el.closest("li");
    const d = doc();
    const c = charFor(d, li);
    const have = copiesOf(d, li.dataset.place, li.dataset.card, c);
    if (el.dataset.less !== undefined) {
      if (have.length) queue(have[have.length - 1]);
    } else {
      const delta = Number(el.dataset.count) - have.length;
      if (delta !== 0) queue({ op: "deck", char: c, card: li.dataset.card, delta: delta });
    }
  });

  const filter = document.getElementById("picker-filter");
  const val = (id) => { const el = document.getElementById(id); return el ? el.value : ""; };

  // Find: the server reads the search (the card search language, one parser for every page) and
  // answers the ids it finds; `found` is null while the box is empty
  let found = null, asked = 0, waiting = null;
  const pickerBox = document.getElementById("picker");
  const searchWhy = document.getElementById("picker-search-why");
  async function runSearch() {
    const q = filter ? filter.value.trim() : "";
    const n = ++asked;
    if (!q) { found = null; if (searchWhy) searchWhy.hidden = true; applyFilters(); return; }
    const url = `/api/${pack}/search?side=${encodeURIComponent(pickerBox.dataset.side || "")}&q=${encodeURIComponent(q)}`;
    window.pnpBusy += 1;
    try {
      const res = await fetch(url, { headers: { accept: "application/json" } });
      const data = await res.json();
      if (n !== asked) return;  // a newer search is on its way
      const problem = res.ok ? null : (data.errors && data.errors[0]) || { message: "the search did not work" };
      found = res.ok ? new Set(data.ids) : new Set();
      if (searchWhy) {
        searchWhy.hidden = !problem;
        const plain = (t) => String(t || "").replace(/`/g, "");  // the page's words: no backticks
        searchWhy.textContent = problem ? `${plain(problem.message)}${problem.column ? tr(" (at character {n})", { n: problem.column }) : ""}`
          + (problem.fix ? `: ${plain(problem.fix)}` : "") : "";
      }
      applyFilters();
    } finally { window.pnpBusy -= 1; }
  }

  // "@mine": the cards the build's characters own (their base cards) and no one's: another boss's
  // cards are not offered unless asked for (a card owned by one character goes to it when added)
  function baseIds(chars) {
    if (!chars.length) return null;
    const ids = new Set();
    chars.forEach((ch) => {
      const base = ch[side.key];
      (Array.isArray(base) ? base.map((e) => e[side.item]) : [base]).forEach((id) => { if (id) ids.add(id); });
    });
    return ids;
  }

  function applyFilters() {
    const type = val("pf-type"), set = val("pf-set"), owner = val("pf-owner");
    const mine = baseIds(doc().characters || []);
    const lo = val("pf-min") === "" ? null : Number(val("pf-min"));
    const hi = val("pf-max") === "" ? null : Number(val("pf-max"));
    document.querySelectorAll(".pick li").forEach((li) => {
      const pts = li.dataset.points === "" ? 0 : Number(li.dataset.points);
      li.hidden = !((found === null || found.has(li.dataset.card))
        && (!type || li.dataset.type === type) && (!set || li.dataset.set === set)
        && (!owner || (owner === "@mine" ? mine === null || li.dataset.owner === "-" || mine.has(li.dataset.ownerId)
                                         : li.dataset.owner === owner))
        && (lo === null || pts >= lo) && (hi === null || pts <= hi));
    });
    document.querySelectorAll("details[data-place]").forEach((group) => {  // "(3 of 36)" while filtering
      const all = group.querySelectorAll(".pick li").length;
      const shown = group.querySelectorAll(".pick li:not([hidden])").length;
      const count = group.querySelector(".count");
      if (count) count.textContent = shown === all ? `(${all})` : tr("({shown} of {count})", { shown, count: all });
    });
  }

  function applySort() {
    const by = val("pf-sort") || "order";
    const keyOf = {
      order: (li) => [Number(li.dataset.order)],
      name: (li) => [li.dataset.name],
      points: (li) => [li.dataset.points === "" ? 0 : Number(li.dataset.points), li.dataset.name],
      type: (li) => [li.dataset.tname, li.dataset.name],
    }[by];
    document.querySelectorAll("ul.pick").forEach((ul) => {
      const items = [...ul.children];
      items.sort((a, b) => {
        const ka = keyOf(a), kb = keyOf(b);
        for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
        return Number(a.dataset.order) - Number(b.dataset.order);
      });
      ul.append(...items);
    });
  }

  document.querySelectorAll(".pfilters input, .pfilters select").forEach((el) => {
    if (el === filter) return;
    el.addEventListener(el.id === "pf-sort" ? "change" : "input", el.id === "pf-sort" ? applySort : applyFilters);
    if (el.tagName === "SELECT" && el.id !== "pf-sort") el.addEventListener("change", applyFilters);
  });
  if (filter) {
    filter.addEventListener("input", () => {  // a search a moment after the last key, not one per key
      clearTimeout(waiting);
      waiting = setTimeout(runSearch, 150);
    });
  }

  document.addEventListener("keydown", (e) => {
    const t = e.target;
    const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    if (e.key === "Escape") { hidePreview(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "/" && filter) { e.preventDefault(); filter.focus(); filter.select(); return; }
    const li = t && t.closest && t.closest(".pick li");
    if (!li) return;
    if (e.key === "+" || e.key === "=") { e.preventDefault(); more(li); }
    else if (e.key === "-" || e.key === "−" || e.key === "_") { e.preventDefault(); fewer(li); }
  });

  // a card's picture, larger: on hover where there is a mouse, on a tap (or Enter) anywhere
  const preview = document.getElementById("preview");
  const previewImg = document.getElementById("preview-img");
  let pinned = false;
  function showPreview(btn, pin) {
    if (!preview) return;
    previewImg.src = btn.dataset.preview;
    previewImg.alt = btn.getAttribute("aria-label").replace(/^Larger picture of /, "");
    preview.hidden = false;
    pinned = pin;
    preview.classList.toggle("pinned", pin);
    if (pin) document.getElementById("preview-close").focus();
  }
  function hidePreview() { if (preview && !preview.hidden) { preview.hidden = true; pinned = false; } }
  document.addEventListener("click", (e) => {
    const btn = e.target.closest("button.thumb");
    if (btn) { showPreview(btn, true); return; }
    if (e.target.closest("#preview-close") || e.target === preview) hidePreview();
  });
  if (window.matchMedia && window.matchMedia("(hover: hover)").matches) {
    document.addEventListener("mouseover", (e) => {
      const btn = e.target.closest && e.target.closest("button.thumb");
      if (btn && !pinned) showPreview(btn, false);
    });
    document.addEventListener("mouseout", (e) => {
      const btn = e.target.closest && e.target.closest("button.thumb");
      if (btn && !pinned) hidePreview();
    });
  }

  readState();
})();
