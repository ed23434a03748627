// Draws a state of the web board: squares (data-square, from White's side whatever the
// orientation), pieces (data-piece: Fairy-Stockfish's FEN letters), hands, clocks, moves.
export const FILES = "abcdefgh";

export function parseFen(fen) {
  // The FEN's placement, as {square: letter} ("M~" for a promoted piece); any [pocket] is left out.
  const placement = fen.split(" ")[0].replace(/\[.*\]/, "");
  const pieces = {};
  placement.split("/").forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (let k = 0; k < row.length; k++) {
      const c = row[k];
      if (c >= "0" && c <= "9") { file += Number(c); continue; }
      const letter = row[k + 1] === "~" ? c + "~" : c;
      if (letter.length === 2) k++;
      pieces[FILES[file] + rank] = letter;
      file++;
    }
  });
  return pieces;
}

export function handsOf(fen) {
  // The pieces in hand (Sittuyin's deployment) by colour, from the FEN's [pocket]; null if none.
  const pocket = /\[([^\]]*)\]/.exec(fen.split(" ")[0]);
  if (!pocket || !pocket[1]) return null;
  const hands = {w: {}, b: {}};
  for (const c of pocket[1]) {
    const side = c === c.toUpperCase() ? hands.w : hands.b;
    side[c] = (side[c] || 0) + 1;
  }
  return hands;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children);
  return node;
}

export function pieceImg(letter) {
  return el("img", {class: "pc", "data-piece": letter, alt: letter, draggable: "false",
                    src: `/web/piece/${encodeURIComponent(letter)}.svg`});
}

export function buildBoard(root, orientation, coords) {
  // 64 squares, rank 8 at the top for White's side, rank 1 for Black's.
  root.replaceChildren();
  const ranks = orientation === "b" ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
  const files = orientation === "b" ? [...FILES].reverse() : [...FILES];
  for (const rank of ranks) {
    for (const file of files) {
      const name = file + rank;
      const dark = (FILES.indexOf(file) + rank) % 2 === 1;
      const sq = el("div", {class: dark ? "sq dark" : "sq", "data-square": name});
      if (rank === ranks[7]) sq.append(el("span", {class: "fl", text: coords.files[FILES.indexOf(file)]}));
      if (file === files[0]) sq.append(el("span", {class: "rk", text: coords.ranks[rank - 1]}));
      root.append(sq);
    }
  }
}

export function placePieces(root, pieces, lastMove, checkSquare) {
  for (const sq of root.querySelectorAll("[data-square]")) {
    const name = sq.dataset.square;
    const letter = pieces[name];
    const old = sq.querySelector(".pc");
    if (!old || old.dataset.piece !== letter) {
      if (old) old.remove();
      if (letter) sq.append(pieceImg(letter));
    }
    const last = lastMove && !lastMove.includes("@") ? [lastMove.slice(0, 2), lastMove.slice(2, 4)]
      : lastMove ? [lastMove.slice(-2)] : [];
    sq.classList.toggle("last", last.includes(name));
    sq.classList.toggle("check", name === checkSquare);
    sq.classList.remove("selected", "target", "capture");
  }
}

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
