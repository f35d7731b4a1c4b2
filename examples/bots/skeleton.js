#!/usr/bin/env node
// A Dealer's Choice bot in JavaScript (Node, no packages), over the line protocol of
// docs/protocol.md: one JSON object per line on stdin, one answer per line on stdout.
//
// Rule (legal in every variant): call or stay with a made hand (two cards of a rank
// among its own and the community cards), else check, else fold; draw nothing; any
// other decision (bring-in, declare, split, the dealer's choice of game) takes the
// first legal action. It answers by action name (the Python and C skeletons by index).
//
//   dealers-choice dealer stud 'cmd:node examples/bots/skeleton.js' pretrained:stud
//   node examples/bots/skeleton.js --serve 7000    # then tcp://127.0.0.1:7000
"use strict";
const net = require("net");
const readline = require("readline");

const NAME = "js-skeleton";

// A pair or better among the cards the seat may use (cards are rank * 4 + suit).
function madeHand(view) {
  const ranks = view.own_cards.concat(view.community).map((card) => Math.floor(card / 4));
  return new Set(ranks).size !== ranks.length;
}

// The name of the action to take: always one of view.legal_names.
function choose(view) {
  const names = view.legal_names;
  const strong = madeHand(view);
  if (names.includes("check_call") && (strong || view.to_call === 0)) return "check_call";
  if (names.includes("stay") && strong) return "stay";
  if (names.includes("discard_none")) return "discard_none";
  if (names.includes("fold")) return "fold";
  return names[0];
}

// One session: answer the greeting and every decision until the match ends.
function play(input, output, done) {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const send = (message) => output.write(JSON.stringify(message) + "\n");
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.type === "hello") {
      if (message.protocol !== 1) {
        console.error(`${NAME}: protocol ${message.protocol} is not 1`);
        lines.close();
        return;
      }
      send({ type: "ready", name: NAME });
    } else if (message.type === "act") {
      send({ action: choose(message.view) });
    } else if (message.type === "end_match" || message.type === "error") {
      lines.close();
    } // "hand" and "end_hand" need no answer
  });
  lines.on("close", done);
}

const args = process.argv.slice(2);
if (args.length === 2 && args[0] === "--serve") {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    play(socket, socket, () => socket.end());
  });
  server.listen(Number(args[1]), "127.0.0.1", () => {
    console.log(`listening 127.0.0.1:${server.address().port}`);
  });
} else if (args.length === 0) {
  play(process.stdin, process.stdout, () => process.exit(0));
} else {
  console.error("usage: skeleton.js [--serve PORT]");
  process.exit(2);
}
