"use strict";
// A folder browser over the server's root folders (GET /api/files): nothing outside them can be listed.

class FileBrowser {
  constructor(container, options) {
    this.container = container;
    this.onFile = options.onFile || null; // (path) => ..., for files the page can open
    this.onReport = options.onReport || null; // (path) => ..., for evaluate.py output folders
    this.wantFiles = options.files !== false;
    this.path = null;
  }

  async load(path) {
    const query = path ? "?path=" + encodeURIComponent(path) : "";
    const data = await guarded(() => api("GET", "files" + query));
    if (!data) return;
    this.path = data.path;
    this.render(data);
  }

  render(data) {
    const list = el("ul", { class: "file-list" });
    if (data.path !== null) {
      const up = data.parent;
      list.append(el("li", { class: "dir up" }, el("a", { href: "#", onclick: (e) => { e.preventDefault(); this.load(up); } }, "⬑ " + (up || "the root folders"))));
      if (data.report && this.onReport) {
        list.append(el("li", { class: "report" }, el("a", { href: "#", onclick: (e) => { e.preventDefault(); this.onReport(data.path); } }, "★ open this folder's report")));
      }
    }
    for (const entry of data.entries) {
      if (entry.kind === "file" && !this.wantFiles) continue;
      const label = (entry.kind === "dir" ? "▸ " : "") + entry.name + (entry.report ? " ★" : "");
      const link = el("a", { href: "#", "data-path": entry.path, onclick: (e) => { e.preventDefault(); this.pick(entry); } }, label);
      list.append(el("li", { class: entry.kind }, link));
    }
    if (!data.entries.length) list.append(el("li", { class: "hint" }, "(nothing to open here)"));
    this.container.replaceChildren(el("div", { class: "path" }, data.path || "root folders"), list);
  }

  pick(entry) {
    if (entry.kind === "dir") {
      if (entry.report && this.onReport) this.onReport(entry.path);
      this.load(entry.path);
    } else if (this.onFile) {
      this.onFile(entry.path);
    }
  }
}
