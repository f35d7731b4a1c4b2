"use strict";
// The Reports tab: an evaluate.py output folder (report.json): the results table, the tournament crosstable
// and ratings, the plot, and its hands.jsonl opened in Replay.

const Reports = {
  init() {
    this.browser = new FileBrowser(document.getElementById("report-files"), { files: false, onReport: (p) => this.open(p) });
    this.browser.load(null);
  },

  async open(path) {
    const data = await guarded(() => api("GET", "report?path=" + encodeURIComponent(path)));
    if (data) this.show(data);
  },

  show(data) {
    const r = data.report;
    const view = document.getElementById("report-view");
    const fmt = (x) => (x === null || x === undefined ? "—" : signed(x));
    const parts = [
      el("h2", { class: "report-title" }, `${r.title} (${r.variant}), ${r.num_players} players: ${r.mode}`),
      el("p", { class: "hint" }, `${r.deals} deals, ${r.hands} hands, seed ${r.seed}; results in ${r.rate_label}, 95% intervals. Folder: ${data.folder}`),
    ];
    if (r.bots_summary) {
      const elo = r.bots_summary.some((b) => b.elo !== undefined);
      const head = el("tr", {}, el("th", {}, "bot"), elo ? el("th", {}, "Elo") : null, elo ? el("th", {}, "Elo 95% CI") : null,
        el("th", {}, r.mode === "tournament" ? "vs field" : "result"), el("th", {}, "95% CI"), el("th", {}, "win%"));
      const rows = r.bots_summary.map((b) => el("tr", { "data-bot": b.name },
        el("td", {}, b.name),
        elo ? el("td", { class: "num elo" }, b.elo === undefined ? "—" : signed(b.elo, 0)) : null,
        elo ? el("td", { class: "num" }, `[${signed(b.elo_low, 0)}, ${signed(b.elo_high, 0)}]`) : null,
        el("td", { class: "num mean" }, fmt(b.mean)), el("td", { class: "num" }, `[${fmt(b.ci_low)}, ${fmt(b.ci_high)}]`),
        el("td", { class: "num" }, (100 * b.win_rate).toFixed(1))));
      parts.push(el("h3", {}, elo ? "Results and ratings" : "Results"), el("table", { class: "results report-bots" }, head, ...rows));
    }
    if (r.matrix) {
      const names = r.names;
      const head = el("tr", {}, el("th", {}, "row vs column"), ...names.map((n) => el("th", {}, n)));
      const rows = names.map((n, i) => el("tr", {}, el("th", {}, n), ...names.map((_, j) => {
        const m = r.matrix.mean[i][j], h = r.matrix.half_width[i][j];
        const cls = m === null ? "num" : m > 0 ? "num pos" : m < 0 ? "num neg" : "num";
        return el("td", { class: cls, "data-row": i, "data-col": j }, m === null ? "·" : `${signed(m)} ± ${h === null ? "—" : h.toFixed(1)}`);
      })));
      parts.push(el("h3", {}, "Crosstable (row bot's result against the column bot)"), el("table", { class: "results crosstable" }, head, ...rows));
    }
    if (r.forfeits) {
      parts.push(el("h3", {}, "Forfeits"), el("ul", {}, ...r.forfeits.map((f) => el("li", {}, JSON.stringify(f)))));
    }
    if (data.files["report.png"]) {
      parts.push(el("h3", {}, "Plot"), el("img", { class: "report-plot", alt: "report.png", src: "/api/image?path=" + encodeURIComponent(data.files["report.png"]) }));
    }
    if (data.files["hands.jsonl"]) {
      parts.push(el("button", { type: "button", class: "open-hands", onclick: () => { showTab("replay"); Replay.openPath(data.files["hands.jsonl"]); } }, "Open hands.jsonl in Replay"));
    }
    parts.push(el("h3", {}, "As evaluate.py prints it"), el("pre", { class: "history" }, data.table));
    view.replaceChildren(...parts);
  },
};
