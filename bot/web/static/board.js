// The web board's page: a WebSocket that pushes the game's state, the player's taps and drags
// as moves (only those the server listed as legal), resync after sleep or a lost network.
import {installPointer} from "./pointer.js";
import {buildBoard, clockText, el, handsOf, parseFen, pieceImg, placePieces} from "./view.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const T = boot.text;
const $ = (sel) => document.querySelector(sel);
const boardEl = $("[data-board]");
let state = null, socket = null, retries = 0, timer = null, selected = null, built = "", replayAt = null, received = 0;
let credentials = takeCredentials();

function takeCredentials() {
  // The token comes in the fragment (#t=...), so it never reaches a server log; kept for this tab.
  const key = `makruk-web-${boot.game}`;
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("t")) {
    sessionStorage.setItem(key, JSON.stringify({token: hash.get("t")}));
    history.replaceState(null, "", location.pathname + location.search);
  }
  try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch { return null; }
}

async function liffCredentials() {
  // Inside LINE (LIFF): the user's ID token, which the server checks against LINE's keys.
  if (!boot.liff) return null;
  const viaLiff = /\bLine\//i.test(navigator.userAgent) || sessionStorage.getItem("makruk-liff");
  if (!window.liff && viaLiff) {
    await new Promise((ok) => document.head.append(el("script", {
      src: "https://static.line-scdn.net/liff/edge/2/sdk.js", onload: ok, onerror: ok})));
  }
  if (!window.liff) return null;
  try {
    await window.liff.init({liffId: boot.liff});
    if (window.liff.isLoggedIn && !window.liff.isLoggedIn()) { window.liff.login({redirectUri: location.href}); return null; }
    const idToken = window.liff.getIDToken && window.liff.getIDToken();
    return idToken ? {id_token: idToken} : null;
  } catch { return null; }
}

function connect() {
  clearTimeout(timer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/g/${boot.game}/ws`);
  socket = ws;
  ws.onopen = () => {
    retries = 0;
    note("");
    if (credentials) ws.send(JSON.stringify({type: "auth", ...credentials}));
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    note(T.reconnecting);
    const delay = Math.min(10000, 500 * 2 ** retries++) * (0.75 + Math.random() / 2);
    timer = setTimeout(connect, delay);
  };
}

function send(data) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
}

function receive(data) {
  if (data.type === "state") { state = data; received = performance.now(); render(); }
  else if (data.type === "auth") note(data.side === "w" ? T.you_white : T.you_black);
  else if (data.type === "error") {
    note(data.text);
    if (data.code === "auth") { credentials = null; sessionStorage.removeItem(`makruk-web-${boot.game}`); }
  } else if (data.type === "info") note(data.text);
}

function note(text) { $("[data-note]").textContent = text || ""; }

// --- drawing ---------------------------------------------------------------------------

function render() {
  const s = state;
  const orientation = s.viewer.orientation;
  const key = orientation + s.coords.files.join("");
  if (key !== built) { buildBoard(boardEl, orientation, s.coords); built = key; }
  if (s.positions && replayAt !== null) showReplay(); else showPosition(s.fen, s.lastMove, s.check);
  selected = null;
  const top = orientation === "w" ? "b" : "w";
  for (const [slot, color] of [["top", top], ["bottom", orientation]]) {
    const name = $(`[data-name="${slot}"]`);
    name.textContent = color === "w" ? s.white : s.black;
    name.parentElement.classList.toggle("turn", s.status === "active" && s.turn === color);
    drawHand($(`[data-hand="${slot}"]`), s.hands ? s.hands[color] : null, color);
    const clock = $(`[data-clock-slot="${slot}"]`);
    clock.replaceChildren();
    if (s.clocks) clock.append(el("span", {"data-clock": color === "w" ? "white" : "black"}));
  }
  tickClocks();
  $("[data-status]").textContent = s.statusText;
  $("[data-watchers]").textContent = `${T.watchers}: ${s.watchers}`;
  drawActions();
  drawMoves();
  drawReplay();
  const links = $("[data-links]");
  links.replaceChildren();
  if (s.links) links.append(el("a", {href: s.links.pgn, text: T.pgn}), el("a", {href: s.links.gif, text: T.gif}));
  if (!performance.getEntriesByName("makruk-board").length) performance.mark("makruk-board");  // first render
}

function showPosition(fen, lastMove, check) {
  const pieces = parseFen(fen);
  const king = state.turn === "w" ? "K" : "k";
  const checkSquare = check ? Object.keys(pieces).find((sq) => pieces[sq] === king) : null;
  placePieces(boardEl, pieces, lastMove, checkSquare);
}

function drawHand(root, hand, color) {
  root.replaceChildren();
  if (!hand) return;
  for (const [letter, count] of Object.entries(hand)) {
    const mine = state.viewer.canMove && color === state.turn;
    root.append(el("button", {"data-drop": letter, disabled: !mine, onclick: () => selectDrop(letter)},
                   pieceImg(letter), el("span", {text: count > 1 ? String(count) : ""})));
  }
}

function drawActions() {
  const root = $("[data-actions]");
  root.replaceChildren();
  const may = state.may, add = (action, label, confirmText) => root.append(el("button", {
    "data-action": action, text: label,
    onclick: () => { if (!confirmText || confirm(confirmText)) send({type: action}); }}));
  if (may.accept) { add("accept", T.draw_accept); add("decline", T.decline); }
  else if (may.draw && state.drawOffer === null) add("draw", T.draw_offer);
  if (may.count) add("count", T.count);
  if (may.stopcount) add("stopcount", T.stopcount);
  if (may.resign) add("resign", T.resign, T.confirm_resign);
}

function drawMoves() {
  const root = $("[data-moves]");
  root.replaceChildren(...state.moves.map((m) => el("li", {"data-ply": m.ply, text:
    (m.ply % 2 ? `${(m.ply + 1) / 2}. ` : "") + m.text})));
  root.scrollTop = root.scrollHeight;
}

// --- clocks ----------------------------------------------------------------------------

function tickClocks() {
  if (!state || !state.clocks) return;
  const c = state.clocks, gone = performance.now() - received;
  for (const [color, name] of [["w", "white"], ["b", "black"]]) {
    const node = document.querySelector(`[data-clock="${name}"]`);
    if (!node) continue;
    const ms = c[name] - (c.running === color ? gone : 0);
    node.textContent = clockText(ms);
    node.parentElement.classList.toggle("running", c.running === color);
    node.parentElement.classList.toggle("low", ms < 10000);
  }
}
setInterval(tickClocks, 200);

// --- moving ----------------------------------------------------------------------------

function movesFrom(square) { return state.legal.filter((m) => m.from === square); }

function mark(moves, from) {
  for (const sq of boardEl.querySelectorAll("[data-square]")) {
    const name = sq.dataset.square;
    const hit = moves.some((m) => m.to === name);
    sq.classList.toggle("selected", name === from);
    sq.classList.toggle("target", hit);
    sq.classList.toggle("capture", hit && !!sq.querySelector(".pc"));
  }
}

function unselect() {
  selected = null;
  mark([], null);
  for (const b of document.querySelectorAll("[data-drop]")) b.classList.remove("selected");
}

function selectDrop(letter) {
  if (!state.viewer.canMove) return;
  // A drop's UCI names the kind in upper case for both sides (R@h8); the hand's letter is Black's own (r).
  selected = {drop: letter, moves: state.legal.filter((m) => m.drop === letter.toUpperCase())};
  mark(selected.moves, null);
  for (const b of document.querySelectorAll("[data-drop]")) b.classList.toggle("selected", b.dataset.drop === letter);
}

function tapSquare(square) {
  if (!state || replayAt !== null || !state.viewer.canMove) return;
  if (selected) {
    const moves = selected.moves.filter((m) => m.to === square);
    if (moves.length) { play(moves); return; }
  }
  const moves = movesFrom(square);
  if (moves.length && !(selected && selected.from === square)) {
    selected = {from: square, moves};
    mark(moves, square);
  } else unselect();
}

function play(moves) {
  unselect();
  if (moves.length === 1) { send({type: "move", move: moves[0].uci}); return; }
  // Several legal moves between the same squares (a promotion or not): the player picks one.
  note(T.choose);
  const root = $("[data-note]");
  root.append(el("span", {class: "chooser"}, ...moves.map((m) => el("button", {
    text: m.san, onclick: () => { note(""); send({type: "move", move: m.uci}); }}))));
}

installPointer(boardEl, {
  movable: (square) => !!state && state.viewer.canMove && replayAt === null && movesFrom(square).length > 0,
  dragStart: (square) => { selected = {from: square, moves: movesFrom(square)}; mark(selected.moves, square); },
  drop: (from, to) => {
    const moves = to ? movesFrom(from).filter((m) => m.to === to) : [];
    if (moves.length) play(moves); else unselect();
  },
  tap: tapSquare,
});

// --- replay (finished games) -----------------------------------------------------------

function drawReplay() {
  const root = $("[data-replay]");
  if (!state.positions) { root.hidden = true; replayAt = null; return; }
  root.hidden = false;
  const last = state.positions.length - 1;
  if (replayAt === null) replayAt = last;
  const go = (n) => { replayAt = Math.max(0, Math.min(last, n)); showReplay(); };
  root.replaceChildren(
    el("button", {text: "«", title: T.first, "data-replay-to": "first", onclick: () => go(0)}),
    el("button", {text: "‹", title: T.prev, "data-replay-to": "prev", onclick: () => go(replayAt - 1)}),
    el("input", {type: "range", min: 0, max: last, value: replayAt,
                 oninput: (e) => go(Number(e.target.value))}),
    el("button", {text: "›", title: T.next, "data-replay-to": "next", onclick: () => go(replayAt + 1)}),
    el("button", {text: "»", title: T.last, "data-replay-to": "last", onclick: () => go(last)}));
  showReplay();
}

function showReplay() {
  const n = replayAt;
  showPosition(state.positions[n], n > 0 ? state.moves[n - 1].uci : null, false);
  const hands = handsOf(state.positions[n]), top = state.viewer.orientation === "w" ? "b" : "w";
  drawHand($('[data-hand="top"]'), hands && hands[top], top);
  drawHand($('[data-hand="bottom"]'), hands && hands[state.viewer.orientation], state.viewer.orientation);
  const slider = document.querySelector("[data-replay] input");
  if (slider) slider.value = n;
  for (const li of document.querySelectorAll("[data-moves] li")) li.classList.toggle("now", Number(li.dataset.ply) === n);
}

document.addEventListener("keydown", (event) => {
  if (!state || !state.positions || replayAt === null) return;
  const last = state.positions.length - 1;
  if (event.key === "ArrowLeft") replayAt = Math.max(0, replayAt - 1);
  else if (event.key === "ArrowRight") replayAt = Math.min(last, replayAt + 1);
  else return;
  showReplay();
});

// --- staying in sync -------------------------------------------------------------------

function resync() {
  // Back from sleep or offline: a dead socket reconnects now; a live one is asked for the state.
  if (!socket || socket.readyState > WebSocket.OPEN) { retries = 0; connect(); } else send({type: "state"});
}
document.addEventListener("visibilitychange", () => { if (!document.hidden) resync(); });
window.addEventListener("online", resync);
window.addEventListener("pageshow", (event) => { if (event.persisted) resync(); });

// Chromium keeps the fallback boxes of text laid out before a web font came: lay the title out again.
const relayTitle = () => { const h = $("h1"); h.textContent = h.textContent; };
document.fonts.addEventListener("loadingdone", relayTitle);
document.fonts.ready.then(relayTitle);

if (boot.state) receive(boot.state);  // a watcher's view at once; the socket brings the player's

(async () => {
  if (!credentials) credentials = await liffCredentials();
  connect();
})();
