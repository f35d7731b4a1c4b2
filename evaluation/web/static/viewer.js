"use strict";
// Steps through one hand: forward, back, jump to a street, play at a speed, one seat's view or every card,
// the history lines so far, the project's PNG of the frame, and a bot's thoughts at its decisions.

class HandViewer {
  constructor(container, options) {
    this.container = container;
    this.onEnd = (options && options.onEnd) || null; // called when playing reaches the last frame
    this.collection = null;
    this.index = null;
    this.data = null;
    this.position = 0;
    this.viewer = "all";
    this.timer = null;
    this.build();
  }

  build() {
    const c = this.container;
    c.replaceChildren();
    this.controls = el("div", { class: "controls" });
    const button = (label, title, action, cls) =>
      el("button", { type: "button", title, class: cls, onclick: action }, label);
    this.firstButton = button("|◀", "first frame", () => this.go(0), "first");
    this.backButton = button("◀", "back one step", () => this.go(this.position - 1), "back");
    this.playButton = button("▶ play", "play at the chosen speed", () => this.toggle(), "play");
    this.forwardButton = button("▶", "forward one step", () => this.go(this.position + 1), "forward");
    this.lastButton = button("▶|", "last frame", () => this.go(this.frames().length - 1), "last");
    this.speed = el("select", { class: "speed", title: "frames per second" });
    for (const [label, ms] of [["0.5×", 2000], ["1×", 1000], ["2×", 500], ["4×", 250], ["10×", 100]]) {
      this.speed.append(el("option", { value: ms, selected: ms === 1000 }, label));
    }
    this.speed.addEventListener("change", () => this.restart());
    this.street = el("select", { class: "street-jump", title: "jump to a street" });
    this.street.addEventListener("change", () => this.go(Number(this.street.value)));
    this.viewSelect = el("select", { class: "viewer-select", title: "whose view" });
    this.viewSelect.addEventListener("change", () => this.setViewer(this.viewSelect.value));
    this.picture = el("input", { type: "checkbox", class: "picture-toggle" });
    this.picture.addEventListener("change", () => this.show());
    this.counter = el("span", { class: "counter" });
    this.controls.append(
      this.firstButton, this.backButton, this.playButton, this.forwardButton, this.lastButton,
      el("label", {}, "speed ", this.speed), el("label", {}, "street ", this.street),
      el("label", {}, "view ", this.viewSelect), el("label", {}, this.picture, " renderer's PNG"), this.counter,
    );
    this.tableBox = el("div", { class: "table-box" });
    this.image = el("img", { class: "frame-png", alt: "the table drawn by envs/render.py", hidden: true });
    this.insight = el("div", { class: "insight" });
    this.history = el("pre", { class: "history" });
    this.downloads = el("div", { class: "downloads" });
    c.append(this.controls, this.tableBox, this.image, this.insight, this.downloads, this.history);
    this.setEnabled(false);
  }

  setEnabled(on) {
    for (const node of this.controls.querySelectorAll("button, select, input")) node.disabled = !on;
  }

  frames() {
    return this.data ? this.data.frames : [];
  }

  async open(collection, index, autoplay) {
    this.stop();
    this.collection = collection;
    this.index = index;
    let names = await this.fetchFrames();
    if (!names && this.viewer !== "all") {
      this.viewer = "all"; // a seat this hand does not have
      names = await this.fetchFrames();
    }
    if (!names) return;
    this.viewSelect.replaceChildren(
      el("option", { value: "all" }, "every card"), el("option", { value: "public" }, "public (no hidden card)"),
      ...names.map((name, seat) => el("option", { value: String(seat) }, "player_" + seat + " " + name)),
    );
    this.viewSelect.value = this.viewer;
    this.downloads.replaceChildren(
      el("a", { href: this.recordUrl("json"), download: "hand.json", class: "download" }, "record (JSON)"),
      el("a", { href: this.recordUrl("phh"), download: "hand.phh", class: "download" }, "PHH (stud, razz, stud 8)"),
    );
    this.setEnabled(true);
    this.go(0);
    if (autoplay) this.toggle();
  }

  recordUrl(fmt) {
    return `/api/hand/${this.collection}/${this.index}/record?format=${fmt}`;
  }

  async fetchFrames() {
    const data = await guarded(() => api("GET", `hand/${this.collection}/${this.index}?viewer=${this.viewer}`));
    if (!data) return null;
    this.data = data;
    this.street.replaceChildren(...data.streets.map((s) => el("option", { value: s.frame }, s.label)));
    return data.names;
  }

  async setViewer(value) {
    this.viewer = value;
    const keep = this.position;
    if (await this.fetchFrames()) this.go(keep);
  }

  go(position) {
    const frames = this.frames();
    if (!frames.length) return;
    this.position = Math.max(0, Math.min(frames.length - 1, position));
    this.show();
  }

  show() {
    const frame = this.frames()[this.position];
    if (!frame) return;
    drawTable(this.tableBox, frame);
    const usePicture = this.picture.checked;
    this.image.hidden = !usePicture;
    this.tableBox.hidden = usePicture;
    if (usePicture) this.image.src = `/api/hand/${this.collection}/${this.index}/png/${this.position}?viewer=${this.viewer}`;
    this.counter.textContent = `step ${this.position} of ${this.frames().length - 1}`;
    this.counter.setAttribute("data-position", this.position);
    const streets = this.data.streets.filter((s) => s.frame <= this.position);
    if (streets.length) this.street.value = String(streets[streets.length - 1].frame);
    const lines = frame.history || this.data.history.filter(([k]) => k <= frame.events).map(([, line]) => line);
    this.history.textContent = lines.join("\n");
    this.showInsight(frame.insight);
    this.backButton.disabled = this.position === 0;
    this.forwardButton.disabled = this.position === this.frames().length - 1;
  }

  showInsight(insight) {
    this.insight.replaceChildren();
    if (!insight) return;
    this.insight.append(el("div", { class: "who" }, `${insight.bot} (player_${insight.seat}) to act`));
    if (insight.probabilities) {
      const list = el("table", { class: "probabilities" });
      for (const p of insight.probabilities) {
        const bar = el("span", { class: "bar", style: `width:${Math.round(100 * p.p)}%` });
        list.append(el("tr", { "data-action": p.action },
          el("td", {}, p.label), el("td", { class: "bar-cell" }, bar), el("td", { class: "num" }, (100 * p.p).toFixed(1) + "%")));
      }
      this.insight.append(list);
    }
    if (insight.value !== undefined) this.insight.append(el("div", { class: "value" }, "value estimate " + signed(insight.value, 3)));
    else if (insight.value_note) this.insight.append(el("div", { class: "hint" }, insight.value_note));
  }

  toggle() {
    if (this.timer) this.stop();
    else this.startTimer();
  }

  startTimer() {
    if (this.position >= this.frames().length - 1) this.position = -1;
    this.playButton.textContent = "⏸ pause";
    this.timer = setInterval(() => this.tick(), Number(this.speed.value));
    this.tick();
  }

  restart() {
    if (this.timer) {
      this.stop();
      this.startTimer();
    }
  }

  tick() {
    if (this.position >= this.frames().length - 1) {
      this.stop();
      if (this.onEnd) this.onEnd();
      return;
    }
    this.go(this.position + 1);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "▶ play";
  }
}
