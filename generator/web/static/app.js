// The editor's only script: send each change with the build to the server, show what comes back.
// The server validates and renders; nothing here knows a rule or a game.
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

  async function send(op) {
    const focused = document.activeElement;
    const key = focused && (focused.dataset.op || focused.id || focused.dataset.change);
    const res = await fetch(`/p/${pack}/edit/apply`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-pnp-fragment": "1" },
      body: JSON.stringify({ build: doc(), op: op, target: { char: state.char, piece: state.piece }, stem: state.stem }),
    });
    const html = await res.text();
    if (!res.ok) { say(html); return; }
    flash.innerHTML = "";
    box.innerHTML = html;
    readState();
    if (key) {  // keep the keyboard where it was
      const again = [...document.querySelectorAll("[data-op],[id],[data-change]")].find(
        (el) => el.dataset.op === key || el.id === key);
      if (again) again.focus();
    }
  }

  // window.pnpBusy: changes sent and not yet shown (tests wait for 0)
  window.pnpBusy = 0;
  function queue(op) {
    window.pnpBusy += 1;
    state.busy = state.busy.then(() => send(op)).catch((e) => say(String(e), "error"))
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
    if (el.id === "target-char") {
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

  const filter = document.getElementById("picker-filter");
  if (filter) filter.addEventListener("input", () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    document.querySelectorAll(".pick li").forEach((li) => {
      li.hidden = !words.every((w) => li.dataset.search.includes(w));
    });
    document.querySelectorAll("details[data-place]").forEach((group) => {  // "(3 of 36)" while filtering
      const all = group.querySelectorAll(".pick li").length;
      const shown = group.querySelectorAll(".pick li:not([hidden])").length;
      const count = group.querySelector(".count");
      if (count) count.textContent = shown === all ? `(${all})` : `(${shown} of ${all})`;
    });
  });

  readState();
})();
