"use strict";
// The Replay tab: open a file (from the root folders or uploaded), list its hands with filters, step through one.

const Replay = {
  collection: null,
  names: [],

  init() {
    this.viewer = new HandViewer(document.getElementById("replay-stage"));
    this.browser = new FileBrowser(document.getElementById("replay-files"), { onFile: (path) => this.openPath(path) });
    this.browser.load(null);
    document.getElementById("upload-file").addEventListener("change", (e) => this.upload(e.target));
    for (const id of ["filter-showdown", "filter-result", "filter-seat"]) {
      document.getElementById(id).addEventListener("change", () => this.list());
    }
  },

  async openPath(path) {
    const data = await guarded(() => api("POST", "open", { path }));
    if (data) await this.opened(data);
  },

  async upload(input) {
    const file = input.files[0];
    if (!file) return;
    if (file.size > maxUpload) {
      showError(`${file.name} is ${file.size} bytes; the server takes uploads up to ${maxUpload} bytes`);
      input.value = "";
      return;
    }
    const text = await file.text();
    const data = await guarded(() => api("POST", "upload", { name: file.name, text }));
    input.value = "";
    if (data) await this.opened(data);
  },

  async opened(data) {
    this.collection = data.collection;
    document.getElementById("collection-name").textContent = `${data.name}: ${data.count} hand(s)`;
    document.getElementById("hand-list-box").hidden = false;
    this.names = [];
    await this.list(true);
  },

  async list(first) {
    if (!this.collection) return;
    const q = new URLSearchParams({
      showdown: document.getElementById("filter-showdown").value,
      result: document.getElementById("filter-result").value,
      seat: document.getElementById("filter-seat").value || "0",
    });
    const data = await guarded(() => api("GET", `collection/${this.collection}?${q}`));
    if (!data) return;
    if (first) this.fillSeats(data);
    const list = document.getElementById("hand-list");
    list.replaceChildren();
    for (const row of data.hands) list.append(this.row(row));
    const listed = data.hands.length < data.matched ? ` (the first ${data.hands.length} listed)` : "";
    document.getElementById("hand-count").textContent = `${data.matched} of ${data.total} hand(s) match${listed}`;
    if (first && data.hands.length) this.pick(data.hands[0].index);
  },

  fillSeats(data) {
    const select = document.getElementById("filter-seat");
    const seen = new Set();
    select.replaceChildren();
    const players = Math.max(...data.hands.map((h) => h.players), 0);
    for (let s = 0; s < players; s++) select.append(el("option", { value: String(s) }, "player_" + s));
    for (const row of data.hands) {
      for (const name of row.names) {
        if (!name.startsWith("player_") && !seen.has(name)) {
          seen.add(name);
          select.append(el("option", { value: name }, "bot " + name));
        }
      }
    }
  },

  row(row) {
    const payoffs = row.payoffs ? row.payoffs.map((p, s) => `${row.names[s]} ${signed(p, 0)}`).join(", ") : "unfinished";
    const where = row.match !== undefined ? `match ${row.match}, deal ${row.deal}, seating ${row.seating}: ` : "";
    return el("li", { "data-index": row.index },
      el("a", { href: "#", onclick: (e) => { e.preventDefault(); this.pick(row.index); } },
        `#${row.index} ${row.title}${row.showdown ? " (showdown)" : ""}`),
      el("div", { class: "hint" }, where + payoffs));
  },

  pick(index) {
    for (const li of document.querySelectorAll("#hand-list li")) li.classList.toggle("current", Number(li.dataset.index) === index);
    this.viewer.open(this.collection, index, false);
  },
};
