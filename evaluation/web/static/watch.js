"use strict";
// The Watch tab: bots play a match hand by hand; each hand can be stepped through like a replay, with a
// bot's action probabilities (and a network's value estimate) at each of its decisions.

function tableRequest(form, play) {
  const data = new FormData(form);
  const number = (name) => (data.get(name) === "" || data.get(name) === null ? null : Number(data.get(name)));
  const body = {
    variant: data.get("variant"),
    bots: String(data.get("bots")).split(/[\n,]+/).map((b) => b.trim()).filter((b) => b),
    players: number("players"),
    options: String(data.get("options") || ""),
    seed: number("seed"),
  };
  if (play) body.seat = number("seat") || 0;
  return body;
}

function sessionNode(session, label) {
  const rows = session.seats.map((s) => {
    const ci = s.half_width === null ? "after 2 hands" : `± ${s.half_width.toFixed(2)}`;
    return el("tr", { "data-seat": s.seat },
      el("td", {}, s.name), el("td", { class: "num total" }, signed(s.total)),
      el("td", { class: "num" }, s.mean === null ? "—" : signed(s.mean)), el("td", { class: "num" }, ci));
  });
  return el("div", {},
    el("h2", {}, label),
    el("p", { class: "hint" }, `${session.hands} hand(s), ${session.unit}; mean per hand with its 95% interval (Student's t)`),
    el("table", { class: "results" },
      el("tr", {}, el("th", {}, ""), el("th", {}, "total"), el("th", {}, "per hand"), el("th", {}, "95% CI")), ...rows));
}

const Watch = {
  table: null,
  wanted: 0,
  running: false,

  init() {
    this.viewer = new HandViewer(document.getElementById("watch-stage"), { onEnd: () => this.next() });
    document.getElementById("watch-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    document.getElementById("watch-stop").addEventListener("click", () => this.stop());
  },

  async start() {
    const form = document.getElementById("watch-form");
    const body = tableRequest(form, false);
    const data = await guarded(() => api("POST", "watch", body));
    if (!data) return;
    this.table = data.table;
    document.getElementById("watch-stage").dataset.table = data.table;
    this.wanted = Number(new FormData(form).get("hands")) || 1;
    this.live = form.elements.live.checked;
    this.running = true;
    document.getElementById("watch-stop").disabled = false;
    document.getElementById("watch-hands").replaceChildren();
    document.getElementById("watch-hands-box").hidden = false;
    document.getElementById("watch-download").href = `/api/history/${this.table}?format=jsonl`;
    document.getElementById("watch-session").replaceChildren(sessionNode(data.session, "Match"));
    await this.next();
  },

  stop() {
    this.running = false;
    document.getElementById("watch-stop").disabled = true;
  },

  async next() {
    if (!this.running || !this.table) return;
    const played = document.getElementById("watch-hands").children.length;
    if (played >= this.wanted) return this.stop();
    const data = await guarded(() => api("POST", `watch/${this.table}/next`));
    if (!data) return this.stop();
    document.getElementById("watch-session").replaceChildren(sessionNode(data.session, "Match"));
    const row = data.hand;
    const payoffs = row.payoffs.map((p, s) => `${row.names[s]} ${signed(p, 0)}`).join(", ");
    document.getElementById("watch-hands").append(
      el("li", { "data-index": data.index },
        el("a", { href: "#", onclick: (e) => { e.preventDefault(); this.stop(); this.viewer.open(this.table, data.index, false); } },
          `hand ${data.index + 1}${row.showdown ? " (showdown)" : ""}`),
        el("div", { class: "hint" }, payoffs)),
    );
    if (this.live) {
      await this.viewer.open(this.table, data.index, true); // its onEnd asks for the next hand
    } else if (played + 1 < this.wanted) {
      setTimeout(() => this.next(), 0);
    } else {
      this.stop();
      await this.viewer.open(this.table, data.index, false);
    }
  },
};
