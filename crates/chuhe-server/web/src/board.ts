// The board a player moves on: the server's own picture (chuhe's SvgBoard, with a transparent
// target on every square and each piece naming its square and side), and over it what the
// page draws itself — legal-move dots and capture rings, the piece under the pointer while it
// is dragged, premoves, arrows. The game page and the analysis board both use it.

const SVG = "http://www.w3.org/2000/svg";

/** A legal move as the server lists it. */
export interface BoardMove {
  uci: string;
  from: string;
  to: string;
  pmn: string;
}

/** An arrow from one square to another; `weight` 1 is the strongest (the best line). */
export interface Arrow {
  from: string;
  to: string;
  weight?: number;
}

export interface BoardHandlers {
  /** The player moved a piece: the legal moves between the two squares (several when a
   * promotion is to be chosen). */
  move(moves: BoardMove[]): void;
  /** The player set (or, with null, cancelled) a premove. */
  premove?(premove: { from: string; to: string } | null): void;
}

interface Point {
  x: number;
  y: number;
}

/** A board in `element`, which it fills. */
export class Board {
  private readonly element: HTMLElement;
  private readonly handlers: BoardHandlers;
  private legal: BoardMove[] = [];
  /** The drops of the piece taken from the hand, whose squares are marked, or none. */
  private dropping: BoardMove[] | null = null;
  /** The side whose pieces may be premoved (not its turn), or none. */
  private premoveSide: string | null = null;
  private premoveMark: { from: string; to: string } | null = null;
  private arrows: Arrow[] = [];
  private selected: string | null = null;
  private cursor: string | null = null;
  /** Arrow keys move the cursor only once the player has entered the board with Enter. */
  private cursorMode = false;
  private press: { from: string; start: Point; pointer: number; dragging: boolean } | null = null;
  private suppressClick = false;
  private pending = false;
  /** The server's SVG text shown now. */
  private picture: string | null = null;

  constructor(element: HTMLElement, handlers: BoardHandlers) {
    this.element = element;
    this.handlers = handlers;
    element.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    element.addEventListener("pointermove", (e) => this.onPointerMove(e));
    element.addEventListener("pointerup", (e) => this.onPointerUp(e));
    element.addEventListener("pointercancel", () => this.cancelDrag());
    element.addEventListener("click", (e) => this.onClick(e));
    element.addEventListener("contextmenu", (e) => {
      if (this.premoveMark || this.selected) {
        e.preventDefault();
        this.setPremove(null, true);
        this.select(null);
      }
    });
    element.addEventListener("keydown", (e) => this.onKey(e));
  }

  /** Shows a new picture (the server's SVG text) and draws the marks again over it. While the
   * pointer is down on the board, the same picture again (a state that moved nothing: the
   * opponent joining, a draw offer) keeps the one shown, so that a piece being dragged is not
   * dropped; any other time the picture is replaced and a move waiting for its answer let go. */
  setPicture(svg: string): void {
    if (svg === this.picture && this.press && !this.pending && this.element.querySelector("svg")) {
      this.redraw();
      return;
    }
    this.picture = svg;
    this.press = null;
    this.pending = false;
    this.element.innerHTML = svg;
    this.redraw();
  }

  /** The moves the player may make now (none: the board only shows). */
  setMoves(legal: BoardMove[]): void {
    // Drops (`from` is `to`) are offered by the page with the pieces of the hand.
    this.legal = legal.filter((m) => m.from !== m.to);
    this.dropping = null;
    if (this.selected && !this.movesFrom(this.selected).length && !this.canPremoveFrom(this.selected)) this.selected = null;
    this.redraw();
  }

  /** Lets the player premove the pieces of `side` while the other side is to move. */
  setPremoveSide(side: string | null): void {
    this.premoveSide = side;
    if (!side) this.premoveMark = null;
    this.redraw();
  }

  /** The premove shown (set by the page, or cleared when played or refused). */
  setPremove(premove: { from: string; to: string } | null, tell = false): void {
    this.premoveMark = premove;
    if (tell) this.handlers.premove?.(premove);
    this.redraw();
  }

  get premove(): { from: string; to: string } | null {
    return this.premoveMark;
  }

  setArrows(arrows: Arrow[]): void {
    this.arrows = arrows;
    this.redraw();
  }

  /** Puts a piece dropped by a move that was refused back where it was. */
  revert(): void {
    this.pending = false;
    this.element.querySelectorAll<SVGGElement>("g.piece.dragging, g.piece.dropped").forEach((g) => {
      g.removeAttribute("transform");
      g.classList.remove("dragging", "dropped");
    });
  }

  /** Takes a piece from the hand: `moves`, its legal drops, are marked on their squares, and
   * picking one of them plays it (picking another square lets the piece go). */
  startDrop(moves: BoardMove[]): void {
    this.dropping = moves.length ? moves : null;
    this.selected = null;
    this.redraw();
  }

  /** Selects a square (its piece's destinations are marked), or none. */
  select(name: string | null): void {
    this.selected = name;
    this.redraw();
  }

  private svg(): SVGSVGElement | null {
    return this.element.querySelector("svg");
  }

  private target(name: string | null): SVGRectElement | null {
    return name ? this.element.querySelector(`rect.square[data-square="${name}"]`) : null;
  }

  private piece(name: string): SVGGElement | null {
    return this.element.querySelector(`g.piece[data-square="${name}"]`);
  }

  private centre(name: string): Point | null {
    const r = this.target(name);
    if (!r) return null;
    return { x: Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2, y: Number(r.getAttribute("y")) + Number(r.getAttribute("height")) / 2 };
  }

  private cell(): number {
    const r = this.element.querySelector("rect.square");
    return r ? Number(r.getAttribute("width")) : 50;
  }

  private movesFrom(from: string): BoardMove[] {
    return this.legal.filter((m) => m.from === from);
  }

  private canPremoveFrom(from: string): boolean {
    return !!this.premoveSide && this.piece(from)?.dataset.side === this.premoveSide;
  }

  /** Squares a premove from `from` may go to: any square but those of the side's own pieces
   * (the move is checked when the turn comes). */
  private premoveTargets(from: string): string[] {
    return [...this.element.querySelectorAll<SVGRectElement>("rect.square")]
      .map((r) => r.dataset.square!)
      .filter((sq) => sq !== from && this.piece(sq)?.dataset.side !== this.premoveSide);
  }

  /** Draws the marks: the classes of the targets, and the page's own layer. */
  private redraw(): void {
    const svg = this.svg();
    if (!svg) return;
    this.element.querySelectorAll("rect.square").forEach((r) => r.classList.remove("selected", "cursor", "movable", "premovable"));
    for (const m of this.legal) this.target(m.from)?.classList.add("movable");
    if (this.premoveSide) {
      this.element.querySelectorAll<SVGGElement>(`g.piece[data-side="${this.premoveSide}"]`).forEach((g) => this.target(g.dataset.square!)?.classList.add("premovable"));
    }
    this.target(this.selected)?.classList.add("selected");
    if (this.cursorMode) this.target(this.cursor)?.classList.add("cursor");
    svg.querySelector("g.overlay")?.remove();
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "overlay");
    layer.setAttribute("pointer-events", "none");
    const cell = this.cell();
    if (this.premoveMark) {
      for (const sq of [this.premoveMark.from, this.premoveMark.to]) {
        const c = this.centre(sq);
        if (c) layer.append(shape("rect", { class: "premove-mark", x: c.x - cell / 2 + 1, y: c.y - cell / 2 + 1, width: cell - 2, height: cell - 2, rx: 6 }));
      }
    }
    for (const m of this.dropping ?? []) {
      const c = this.centre(m.to);
      if (c) layer.append(shape("circle", { class: "move-dot drop-dot", cx: c.x, cy: c.y, r: cell * 0.14, "data-square": m.to }));
    }
    if (this.selected) {
      const targets = this.movesFrom(this.selected).map((m) => m.to);
      const premoves = !targets.length && this.canPremoveFrom(this.selected) ? this.premoveTargets(this.selected) : [];
      for (const sq of new Set([...targets, ...premoves])) {
        const c = this.centre(sq);
        if (!c) continue;
        const taken = this.piece(sq);
        const kind = premoves.length ? "premove-" : "";
        if (taken) layer.append(shape("circle", { class: `${kind}capture-ring`, cx: c.x, cy: c.y, r: cell * 0.46, "data-square": sq }));
        else layer.append(shape("circle", { class: `${kind}move-dot`, cx: c.x, cy: c.y, r: cell * 0.14, "data-square": sq }));
      }
    }
    for (const a of this.arrows) {
      const from = this.centre(a.from),
        to = this.centre(a.to);
      if (!from || !to) continue;
      const weight = a.weight ?? 1;
      const dx = to.x - from.x,
        dy = to.y - from.y;
      const length = Math.hypot(dx, dy) || 1;
      const end = { x: to.x - (dx / length) * cell * 0.25, y: to.y - (dy / length) * cell * 0.25 };
      const width = cell * (weight === 1 ? 0.17 : 0.11);
      const line = shape("line", { class: `analysis-arrow${weight === 1 ? " best" : ""}`, x1: from.x, y1: from.y, x2: end.x, y2: end.y, "stroke-width": width, "stroke-linecap": "round", "data-move": `${a.from}${a.to}` });
      const head = shape("polygon", { class: `analysis-arrow-head${weight === 1 ? " best" : ""}`, points: arrowHead(end, dx / length, dy / length, width * 2.2) });
      layer.append(line, head);
    }
    // Under the targets, which take the clicks; over the pieces.
    const firstTarget = svg.querySelector("rect.square");
    svg.insertBefore(layer, firstTarget);
  }

  /** A square picked by a click, a tap or the keyboard. */
  private pick(name: string): void {
    if (this.pending) return;
    if (this.dropping) {
      const drop = this.dropping.find((m) => m.to === name);
      this.dropping = null;
      if (drop) {
        this.redraw();
        this.handlers.move([drop]);
        return;
      }
    }
    const from = this.selected;
    if (from && from !== name) {
      const moves = this.movesFrom(from).filter((m) => m.to === name);
      if (moves.length) {
        this.selected = null;
        this.redraw();
        this.handlers.move(moves);
        return;
      }
      if (this.canPremoveFrom(from) && this.premoveTargets(from).includes(name)) {
        this.selected = null;
        this.setPremove({ from, to: name }, true);
        return;
      }
    }
    if (this.premoveMark && !from) this.setPremove(null, true);
    this.selected = (this.movesFrom(name).length || this.canPremoveFrom(name)) && from !== name ? name : null;
    this.redraw();
  }

  private squareAt(event: PointerEvent | MouseEvent): string | undefined {
    const hit = document.elementFromPoint(event.clientX, event.clientY) as HTMLElement | null;
    return hit?.dataset?.square;
  }

  /** A screen point in the picture's units. */
  private svgPoint(event: PointerEvent): Point | null {
    const svg = this.svg();
    const matrix = svg?.getScreenCTM();
    if (!svg || !matrix) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: p.x, y: p.y };
  }

  // A press and a release on one square pick it; a press, a drag and a release on another
  // square play the move between them, the piece following the pointer meanwhile. Both are
  // done on the release, not on the click that may follow it (a tap whose finger moved a
  // little makes no click); that click is then skipped. A click with no press before it
  // (assistive tools) still picks.
  private onPointerDown(event: PointerEvent): void {
    this.suppressClick = false;
    if (event.button !== 0) return;
    const from = this.squareAt(event);
    const start = this.svgPoint(event);
    if (!from || !start) return;
    this.press = { from, start, pointer: event.pointerId, dragging: false };
    if (this.movesFrom(from).length || this.canPremoveFrom(from)) {
      try {
        this.element.setPointerCapture(event.pointerId);
      } catch {
        // Capture is a convenience: without it the release is still seen over the board.
      }
    }
  }

  private onPointerMove(event: PointerEvent): void {
    const press = this.press;
    if (!press || press.pointer !== event.pointerId || this.pending) return;
    const at = this.svgPoint(event);
    if (!at) return;
    if (!press.dragging) {
      if (Math.hypot(at.x - press.start.x, at.y - press.start.y) < this.cell() * 0.15) return;
      if (!this.movesFrom(press.from).length && !this.canPremoveFrom(press.from)) return;
      press.dragging = true;
      this.selected = press.from;
      this.redraw();
      const g = this.piece(press.from);
      if (g) {
        g.classList.add("dragging");
        // On top of everything while it moves.
        this.svg()?.append(g);
      }
    }
    const g = this.piece(press.from);
    const c = this.centre(press.from);
    if (g && c) g.setAttribute("transform", `translate(${at.x - c.x} ${at.y - c.y})`);
  }

  private onPointerUp(event: PointerEvent): void {
    const press = this.press;
    this.press = null;
    if (!press || press.pointer !== event.pointerId) return;
    const to = this.squareAt(event);
    this.suppressClick = true;
    if (!press.dragging) {
      if (to === press.from) this.pick(to);
      else if (to) {
        // Pressed on one square and released on another without dragging a piece.
        if (this.movesFrom(press.from).some((m) => m.to === to)) {
          this.selected = press.from;
          this.pick(to);
        }
      }
      return;
    }
    const g = this.piece(press.from);
    const moves = to ? this.movesFrom(press.from).filter((m) => m.to === to) : [];
    if (moves.length && g && to) {
      // The piece stays where it was dropped until the new picture comes.
      const c = this.centre(press.from),
        d = this.centre(to);
      if (c && d) g.setAttribute("transform", `translate(${d.x - c.x} ${d.y - c.y})`);
      g.classList.replace("dragging", "dropped");
      this.pending = true;
      this.selected = null;
      this.redraw();
      this.handlers.move(moves);
      return;
    }
    this.revert();
    if (to && to !== press.from && this.canPremoveFrom(press.from) && this.premoveTargets(press.from).includes(to)) {
      this.selected = null;
      this.setPremove({ from: press.from, to }, true);
      return;
    }
    // Dropped where it cannot go (or back on its square): it stays picked.
    this.selected = press.from;
    this.redraw();
  }

  private cancelDrag(): void {
    this.press = null;
    this.revert();
  }

  private onClick(event: MouseEvent): void {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const name = (event.target as HTMLElement).dataset?.square;
    if (name) this.pick(name);
  }

  /** Is the keyboard cursor in use (arrow keys belong to the board)? */
  get keyboardCursor(): boolean {
    return this.cursorMode;
  }

  // Keyboard: Enter enters the board (a cursor appears on a piece that can move); then the
  // arrow keys move the cursor over the squares as seen on the screen, Enter or Space picks,
  // Escape lets go of the piece picked, or else leaves. Outside the cursor the arrow keys are the page's (stepping
  // through the moves).
  private onKey(event: KeyboardEvent): void {
    const squares = [...this.element.querySelectorAll<SVGRectElement>("rect.square")];
    if (!squares.length) return;
    if (!this.cursorMode) {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.cursorMode = true;
        this.cursor = this.selected || this.legal[0]?.from || squares[0].dataset.square || null;
        this.redraw();
      }
      return;
    }
    const box = (r: Element) => ({ x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")) });
    const step = ({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] } as Record<string, number[]>)[event.key];
    if (step) {
      event.preventDefault();
      event.stopPropagation();
      const current = this.target(this.cursor);
      if (!current) {
        this.cursor = squares[0].dataset.square || null;
      } else {
        const here = box(current);
        let best: { along: number; name: string } | null = null;
        for (const r of squares) {
          const b = box(r);
          const dx = b.x - here.x,
            dy = b.y - here.y;
          const along = step[0] ? dx * step[0] : dy * step[1];
          const across = step[0] ? Math.abs(dy) : Math.abs(dx);
          if (along > 0 && across < 1 && (!best || along < best.along)) best = { along, name: r.dataset.square! };
        }
        if (best) this.cursor = best.name;
      }
      this.redraw();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.cursor) this.pick(this.cursor);
    } else if (event.key === "Escape") {
      // Lets go of the piece picked; with none, leaves the board's keyboard cursor.
      if (this.selected) this.selected = null;
      else this.cursorMode = false;
      this.redraw();
    }
  }
}

function shape(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The three corners of an arrow's head at `tip`, pointing along (ux, uy). */
function arrowHead(tip: Point, ux: number, uy: number, size: number): string {
  const back = { x: tip.x - ux * size, y: tip.y - uy * size };
  const left = { x: back.x - uy * size * 0.6, y: back.y + ux * size * 0.6 };
  const right = { x: back.x + uy * size * 0.6, y: back.y - ux * size * 0.6 };
  const tipOut = { x: tip.x + ux * size * 0.35, y: tip.y + uy * size * 0.35 };
  return [tipOut, left, right].map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
}
