"use strict";
// The Play tab: a seat at a table against bots. The buttons are exactly the legal actions the server lists
// (bets, splits, discards, declarations, the dealer's choice of game); the server applies only a legal one.

const Play = {
  table: null,

  init() {
    document.getElementById("play-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
  },

  async start() {
    const body = tableRequest(document.getElementById("play-form"), true);
    const data = await guarded(() => api("POST", "play", body));
    if (!data) return;
    this.table = data.table;
    document.getElementById("play-table").dataset.table = data.table;
    document.getElementById("play-history").href = `/api/history/${this.table}?format=text`;
    document.getElementById("play-records").href = `/api/history/${this.table}?format=jsonl`;
    document.getElementById("play-downloads").hidden = false;
    this.show(data);
  },

  async act(action) {
    const data = await guarded(() => api("POST", `play/${this.table}/act`, { action }));
    if (data) this.show(data);
  },

  async deal() {
    const data = await guarded(() => api("POST", `play/${this.table}/deal`));
    if (data) this.show(data);
  },

  show(status) {
    const frame = status.frame;
    drawTable(document.getElementById("play-table"), frame);
    const actions = document.getElementById("play-actions");
    actions.replaceChildren();
    for (const option of status.legal) {
      actions.append(el("button", {
        type: "button", class: "action", "data-action": option.action, "data-name": option.name, title: option.label,
        onclick: () => this.act(option.action),
      }, option.words));
    }
    const result = document.getElementById("play-result");
    result.replaceChildren();
    if (frame.over) {
      const r = status.result;
      result.append(
        el("span", { class: r > 0 ? "won" : r < 0 ? "lost" : "", "data-result": r },
          `You ${r > 0 ? "won" : r < 0 ? "lost" : "broke even"}: ${signed(r)} ${status.session.unit}`),
        el("button", { type: "button", class: "deal", onclick: () => this.deal() }, "Deal the next hand"),
      );
    } else if (!status.legal.length) {
      result.append(el("span", { class: "hint" }, "waiting for the bots"));
    }
    document.getElementById("play-history-text").textContent = frame.history.join("\n");
    document.getElementById("play-session").replaceChildren(sessionNode(status.session, "Your session"));
  },
};
