// Taps and drags on the board: a tap on a square goes to ``tap``; a drag of a movable piece shows
// the piece under the pointer and ends in ``drop(from, to)`` (``to`` null: off the board).
import {pieceImg} from "./view.js";

export function squareAt(x, y) {
  const node = document.elementFromPoint(x, y);
  const sq = node && node.closest("[data-square]");
  return sq ? sq.dataset.square : null;
}

export function installPointer(board, {movable, dragStart, drop, tap}) {
  let drag = null, suppressClick = false;
  board.addEventListener("pointerdown", (event) => {
    const square = squareAt(event.clientX, event.clientY);
    if (!square || !movable(square)) return;
    const piece = board.querySelector(`[data-square="${square}"] .pc`);
    drag = {square, x: event.clientX, y: event.clientY, piece, ghost: null, pointer: event.pointerId};
  });
  board.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost && drag.piece && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
      board.setPointerCapture(drag.pointer);  // a drag, not a tap: the board follows the pointer
      const size = drag.piece.getBoundingClientRect().width;
      drag.ghost = pieceImg(drag.piece.dataset.piece);
      drag.ghost.className = "pc ghost";
      drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
      document.body.append(drag.ghost);
      drag.piece.style.opacity = "0.3";
      dragStart(drag.square);
    }
    if (drag.ghost) {
      const half = parseFloat(drag.ghost.style.width) / 2;
      drag.ghost.style.left = `${event.clientX - half}px`;
      drag.ghost.style.top = `${event.clientY - half}px`;
    }
  });
  board.addEventListener("pointerup", (event) => {
    const was = drag;
    drag = null;
    if (!was || !was.ghost) return;  // a tap: the click handles it
    was.ghost.remove();
    if (was.piece) was.piece.style.opacity = "";
    suppressClick = true;
    drop(was.square, squareAt(event.clientX, event.clientY));
  });
  board.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) { drag.ghost.remove(); if (drag.piece) drag.piece.style.opacity = ""; }
    drag = null;
  });
  board.addEventListener("click", (event) => {
    if (suppressClick) { suppressClick = false; return; }
    const square = squareAt(event.clientX, event.clientY);
    if (square) tap(square);
  });
}
