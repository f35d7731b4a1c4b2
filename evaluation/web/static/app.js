"use strict";
// Tabs, the variant and bot lists from /api/info, and the error banner.

function showTab(name) {
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== "tab-" + name;
}

async function fillForms() {
  const info = await guarded(() => api("GET", "info"));
  if (!info) return;
  if (info.max_upload) maxUpload = info.max_upload;
  for (const select of document.querySelectorAll(".variant-select")) {
    select.replaceChildren(...info.variants.map((v) => el("option", { value: v.name }, `${v.title} (${v.name}, ${v.seats[0]}-${v.seats[1]} players)`)));
  }
  for (const hint of document.querySelectorAll(".bot-kinds")) {
    hint.textContent = "bots: " + info.bots.join(", ") + ", or a checkpoint (.pt) inside the root folders";
    hint.title = "root folders: " + info.roots.join(", ");
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => showTab(button.dataset.tab));
  document.getElementById("error-close").addEventListener("click", clearError);
  fillForms();
  document.addEventListener("keydown", stepKeys);
  Replay.init();
  Watch.init();
  Play.init();
  Reports.init();
});

// Arrow keys step the hand on screen (Replay or Watch), space plays or pauses; not while typing.
function stepKeys(event) {
  if (event.target.closest("input, textarea, select")) return;
  const viewer = !document.getElementById("tab-replay").hidden ? Replay.viewer : !document.getElementById("tab-watch").hidden ? Watch.viewer : null;
  if (!viewer || !viewer.data) return;
  if (event.key === "ArrowRight") viewer.go(viewer.position + 1);
  else if (event.key === "ArrowLeft") viewer.go(viewer.position - 1);
  else if (event.key === " ") viewer.toggle();
  else return;
  event.preventDefault();
}
