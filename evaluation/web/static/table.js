"use strict";
// Draws one frame (evaluation/web/frames.py) as the project's renderer (envs/render.py) lays the table out:
// seats around an oval felt, position 0 at the bottom centre (the viewer's seat), then clockwise; each seat's
// cards in the order received (face-down cards the viewer sees tinted, the others as backs); the pot and the
// community cards in the middle (Chowaha's four boards on its 5 x 3 grid); bets this street by the seats.

const TABLE_W = 900, TABLE_H = 600, BOX_H = 96, CARD_W = 30, CARD_STEP = 23;
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
// Chowaha's layout positions (envs.variants.chowaha.LAYOUT order), as envs/render.py's CHOWAHA_SLOTS
const CHOWAHA_SLOTS = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2], [3, 0.5], [3, 1.5], [4, 1]];

function seatLayout(n) {
  const room = (2 * Math.PI * Math.sqrt(((TABLE_W / 2 - 90) ** 2 + (TABLE_H / 2 - 66) ** 2) / 2)) / n;
  const boxW = Math.round(Math.min(180, Math.max(100, room - 8)));
  const rx = TABLE_W / 2 - boxW / 2 - 6, ry = TABLE_H / 2 - BOX_H / 2 - 30;
  const corners = [];
  for (let k = 0; k < n; k++) {
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    corners.push([
      Math.round(TABLE_W / 2 + rx * Math.cos(angle) - boxW / 2),
      Math.round(TABLE_H / 2 - 8 + ry * Math.sin(angle) - BOX_H / 2),
    ]);
  }
  return { boxW, corners };
}

function cardNode(card, faceUp) {
  if (card === null || card === undefined) {
    return el("span", { class: "card back", "data-card": "", title: "a face-down card" });
  }
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return el(
    "span",
    { class: "card suit-" + suit + (faceUp ? " up" : " down"), "data-card": card, title: card + (faceUp ? "" : " (face down)") },
    el("b", {}, rank === "T" ? "10" : rank),
    el("i", {}, SUITS[suit] || suit),
  );
}

function chipsNode(amount, cls) {
  const stack = el("span", { class: "chip-stack" });
  const count = Math.min(6, 1 + Math.floor(Math.log2(Math.max(1, amount))));
  for (let i = 0; i < count; i++) stack.append(el("span", { class: "chip chip-" + (i % 4), style: "bottom:" + 3 * i + "px" }));
  return el("span", { class: cls }, stack, el("span", { class: "amount" }, String(amount)));
}

function seatNode(frame, seat, corner, boxW) {
  const acting = frame.to_act === seat.seat;
  const you = frame.viewer === seat.seat;
  const box = el("div", {
    class: "seat" + (acting ? " acting" : "") + (seat.folded ? " folded" : ""),
    "data-seat": seat.seat,
    style: `left:${corner[0]}px;top:${corner[1]}px;width:${boxW}px;height:${BOX_H}px`,
  });
  const name = el("div", { class: "name" }, seat.name + (you && seat.name !== "you" ? " (you)" : ""));
  box.append(name);
  if (frame.button === seat.seat) box.append(el("span", { class: "dealer", title: "the button" }, "D"));
  if (seat.folded) box.append(el("span", { class: "folded-tag" }, "folded"));
  const cards = el("div", { class: "cards" });
  const count = seat.cards.length;
  const step = count < 2 ? CARD_STEP : Math.min(CARD_STEP, (boxW - 12 - CARD_W) / (count - 1));
  seat.cards.forEach((c, i) => {
    const node = cardNode(c.card, c.up);
    node.style.left = Math.round(i * step) + "px";
    cards.append(node);
  });
  box.append(cards);
  const line = el("div", { class: "chips-line" });
  if (seat.net !== null) line.append(el("span", { class: "stack" }, "net " + signed(seat.net, 0)));
  else line.append(el("span", { class: "stack", "data-stack": seat.stack }, "stack " + seat.stack));
  if (seat.payoff !== null) {
    const cls = seat.payoff > 0 ? "payoff won" : seat.payoff < 0 ? "payoff lost" : "payoff";
    line.append(el("span", { class: cls, "data-payoff": seat.payoff }, signed(seat.payoff, 0)));
  } else {
    line.append(el("span", { class: "inpot", "data-committed": seat.committed }, "in pot " + seat.committed));
  }
  box.append(line);
  const nodes = [box];
  if (seat.said) {
    const below = corner[1] + BOX_H / 2 < TABLE_H / 2;
    const said = el("div", { class: "said", "data-seat": seat.seat, title: seat.said }, seat.said);
    said.style.left = corner[0] + "px";
    said.style.width = boxW + "px";
    said.style.top = (below ? corner[1] + BOX_H + 30 : corner[1] - 48) + "px";
    nodes.push(said);
  }
  if (seat.payoff === null && seat.bet > 0) {
    const bet = chipsNode(seat.bet, "bet");
    bet.setAttribute("data-bet", seat.bet);
    bet.setAttribute("data-seat", seat.seat);
    const below = corner[1] + BOX_H / 2 < TABLE_H / 2;
    bet.style.left = corner[0] + boxW / 2 - 10 + "px";
    bet.style.top = (below ? corner[1] + BOX_H + 6 : corner[1] - 26) + "px";
    nodes.push(bet);
  }
  return nodes;
}

function middleNode(frame) {
  const middle = el("div", { class: "middle" });
  if (frame.layout === "chowaha") {
    const grid = el("div", { class: "community chowaha" });
    CHOWAHA_SLOTS.forEach(([col, row], position) => {
      const card = frame.community[position];
      const node = card ? cardNode(card, true) : el("span", { class: "card slot" });
      node.style.left = col * (CARD_W + 8) + "px";
      node.style.top = Math.round(row * 48) + "px";
      node.setAttribute("data-position", position);
      grid.append(node);
    });
    middle.append(grid);
  } else if (frame.community.length) {
    const row = el("div", { class: "community row" });
    frame.community.forEach((card) => row.append(cardNode(card, true)));
    middle.append(row);
  }
  const pot = chipsNode(frame.pot, "pot");
  pot.setAttribute("data-pot", frame.pot);
  pot.prepend(el("span", { class: "label" }, "pot "));
  middle.append(pot);
  return middle;
}

function viewerText(viewer) {
  if (viewer === null) return "every card";
  return viewer < 0 ? "public view" : "seen by player_" + viewer;
}

// Replaces the content of `container` by the table of `frame`.
function drawTable(container, frame) {
  container.replaceChildren();
  const table = el("div", { class: "table", style: `width:${TABLE_W}px;height:${TABLE_H}px` });
  table.append(el("div", { class: "felt" }));
  table.append(
    el("div", { class: "header" },
      el("div", { class: "title" }, frame.title),
      el("div", { class: "street", "data-street": frame.street }, frame.street),
      el("div", { class: "who" }, viewerText(frame.viewer))),
  );
  const n = frame.seats.length;
  const { boxW, corners } = seatLayout(n);
  const anchor = frame.viewer !== null && frame.viewer >= 0 ? frame.viewer : 0;
  for (const seat of frame.seats) {
    for (const node of seatNode(frame, seat, corners[(seat.seat - anchor + n) % n], boxW)) table.append(node);
  }
  table.append(middleNode(frame));
  let now;
  if (frame.over) {
    now = "hand over: " + frame.seats.map((s) => s.name + " " + signed(s.payoff, 0)).join(", ");
  } else {
    now = "to act: " + frame.seats[frame.to_act].name;
  }
  table.append(
    el("div", { class: "footer" },
      el("span", { class: "last" }, frame.last ? "last: " + frame.last : ""),
      el("span", { class: "now" }, now)),
  );
  container.append(table);
}
