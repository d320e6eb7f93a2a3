// The analysis board: any position of either game — a finished game, an imported record, a
// FEN or FEEN, a position made in the board editor — with chuhe's engine thinking on the
// server and streaming its lines here (an evaluation bar, MultiPV lines in the page's
// notation, arrows for their first moves), and a move tree the player grows by moving on
// the board or clicking a line: variations are entered by playing a different move and left
// by stepping back. A stored game can be reviewed by the engine: each move classified, an
// accuracy per player, an evaluation chart to click through.

import { api, ApiFailure, socketUrl } from "./api";
import { Arrow, Board, BoardMove } from "./board";
import { $, fill, h } from "./dom";
import { Key, t } from "./i18n";
import { promotionLabel } from "./kinds";
import { chosenNotation, coordinates, lineText, moveText, Notation, notationSelect } from "./notation";
import { playSound } from "./sound";
import { errorText, gameName, other, Result, resultText, Side, sideName } from "./words";

/** A position as `POST /api/analysis/position` answers. */
interface PositionView {
  game: string;
  start: string;
  feen: string;
  fen: string | null;
  turn: Side;
  ply: number;
  check: boolean;
  moves: { ply: number; text: Record<string, string>; coords: string }[];
  legal: BoardMove[];
  result: Result | null;
  svg: string;
}

type Score = { cp: number } | { mate: number };

/** A line of the engine's search, as the analysis socket sends it. */
interface Line {
  id: number;
  depth: number;
  seldepth: number;
  multipv: number;
  score: Score;
  wdl: { win: number; draw: number; loss: number };
  bound: "lower" | "upper" | null;
  nodes: number;
  nps: number;
  ms: number;
  pv: Record<string, string[]>;
}

/** A stored review, as `GET /api/games/{id}/review` answers. */
interface Review {
  state: "running" | "done";
  done: number;
  total: number;
  nodes: number;
  positions: { ply: number; score: Score | null; best: string | null; pv: string[]; depth: number; expected: number }[];
  moves: { ply: number; side: Side; uci: string; best: string | null; loss: number; class: MoveClass; accuracy: number }[];
  players: Record<Side, { accuracy: number; inaccuracies: number; mistakes: number; blunders: number }>;
}

type MoveClass = "best" | "good" | "inaccuracy" | "mistake" | "blunder";

/** A node of the move tree: the move that led to it (none at the root) and what follows;
 * the first child is the main line, the others variations. */
interface TreeNode {
  uci: string;
  texts: Record<string, string>;
  coords: string;
  parent: TreeNode | null;
  children: TreeNode[];
  /** The move of the game being analysed (a review's marks apply to it). */
  gameMove: boolean;
}

const SYMBOL: Record<MoveClass, string> = { best: "", good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };

const view = {
  game: "xiangqi",
  start: "start",
  gameId: null as string | null,
  root: null as unknown as TreeNode,
  node: null as unknown as TreeNode,
  position: null as PositionView | null,
  positions: new Map<string, PositionView>(),
  request: 0,
  board: null as Board | null,
  flipped: false,
  glyphs: localStorage.getItem("chuhe.glyphs") || "chinese",
  notation: "wxf" as Notation,
  engineOn: localStorage.getItem("chuhe.engine") !== "off",
  multipv: Number(localStorage.getItem("chuhe.multipv")) || 3,
  socket: null as WebSocket | null,
  searchId: 0,
  lines: [] as Line[],
  engineState: "" as string,
  review: null as Review | null,
};

/** The moves from the root to `node`, in coordinates. */
function pathOf(node: TreeNode): string[] {
  const path: string[] = [];
  for (let n: TreeNode | null = node; n && n.parent; n = n.parent) path.unshift(n.uci);
  return path;
}

function plyOf(node: TreeNode): number {
  return pathOf(node).length;
}

function layout(main: HTMLElement): void {
  const nav = (id: string, label: string, text: string) => h("button", { id, title: label, "aria-label": label }, text);
  fill(
    main,
    h(
      "section",
      { id: "analysis" },
      h(
        "div",
        { className: "board-column" },
        h(
          "div",
          { className: "board-with-bar" },
          h(
            "div",
            { id: "eval-bar", role: "img", "aria-label": t("analysis.eval_bar") },
            h("div", { id: "eval-fill" }),
            h("span", { id: "eval-text" }),
          ),
          h("div", { id: "board", tabindex: "0", role: "application", "aria-label": t("play.board") }),
        ),
        h(
          "div",
          { className: "replay" },
          nav("first-ply", t("play.start"), "⇤"),
          nav("prev-ply", t("play.back"), "◀"),
          h("span", { id: "ply-label" }),
          nav("next-ply", t("play.forward"), "▶"),
          nav("last-ply", t("play.now"), "⇥"),
        ),
      ),
      h(
        "div",
        { className: "side-column" },
        h("h1", { className: "game-title", id: "analysis-title" }),
        h("p", { id: "analysis-status", role: "status" }),
        h(
          "div",
          { className: "engine-head" },
          h("label", { className: "switch" }, h("input", { type: "checkbox", id: "engine-on" }), " ", t("analysis.engine")),
          h(
            "label",
            {},
            t("analysis.lines"),
            " ",
            h("select", { id: "multipv" }, ...[1, 2, 3, 4, 5].map((n) => h("option", { value: n }, String(n)))),
          ),
          h("span", { id: "engine-state", className: "muted" }),
        ),
        h("ol", { id: "lines", "aria-live": "off" }),
        h("div", { id: "tree", "aria-label": t("play.moves") }),
        h(
          "div",
          { className: "actions" },
          h("button", { id: "promote" }, t("analysis.promote")),
          h("button", { id: "delete" }, t("analysis.delete")),
          h("button", { id: "flip" }, t("play.flip")),
          h("button", { id: "glyphs" }, t("play.latin")),
          h("a", { id: "edit-link", className: "button" }, t("analysis.edit")),
          h("a", { id: "game-link", className: "button", hidden: true }, t("analysis.to_game")),
        ),
        notationSelect((n) => {
          view.notation = n;
          renderTree();
          renderLines();
        }),
        h(
          "section",
          { id: "review", hidden: true },
          h("h2", {}, t("review.title")),
          h("button", { id: "review-start" }, t("review.request")),
          h("p", { id: "review-progress", role: "status" }),
          h("div", { id: "review-chart" }),
          h("table", { id: "review-players", className: "stats" }),
        ),
        h(
          "details",
          {},
          h("summary", {}, t("play.position")),
          h("label", {}, "FEEN ", h("input", { id: "feen", readonly: true })),
          h("label", { id: "fen-row" }, "FEN ", h("input", { id: "fen", readonly: true })),
        ),
        h("p", { className: "error", id: "analysis-error", role: "alert" }),
      ),
      h(
        "dialog",
        { id: "promotion" },
        h("p", {}, t("play.promote")),
        h("div", { id: "promotion-choices" }),
        h("button", { id: "promotion-cancel" }, t("play.cancel")),
      ),
    ),
  );
}

/** Opens the analysis board: `?g=ID` (a stored game), or `?game=…&position=…&moves=…`. */
export async function setupAnalysis(main: HTMLElement): Promise<void> {
  layout(main);
  document.title = t("title.analysis");
  const query = new URLSearchParams(location.search);
  view.notation = chosenNotation();
  view.board = new Board($("#board"), {
    move: (moves) => (moves.length === 1 ? playMove(moves[0].uci) : choosePromotion(moves)),
  });
  view.root = { uci: "", texts: {}, coords: "", parent: null, children: [], gameMove: false };
  view.node = view.root;
  let moves: string[] = [];
  let ply: number | null = null;
  let reviewable = false;
  try {
    const id = query.get("g");
    if (id) {
      const game = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      view.gameId = id;
      view.game = game.game;
      view.start = game.start;
      reviewable = !!game.result || game.opponent === "record";
      moves = game.moves.map((m: { text: Record<string, string> }) => m.text.uci);
      view.flipped = game.you === "second";
    } else {
      view.game = query.get("game") || "xiangqi";
      view.start = query.get("position") || "start";
      moves = (query.get("moves") || "").split(/[\s,]+/).filter(Boolean);
    }
    if (query.has("ply")) ply = Number(query.get("ply"));
  } catch (e) {
    showError(errorText(e));
    return;
  }
  // The game's own moves make the main line (their texts come with its last position).
  let node = view.root;
  const line: TreeNode[] = [];
  for (const uci of moves) {
    const child: TreeNode = { uci, texts: {}, coords: "", parent: node, children: [], gameMove: !!view.gameId };
    node.children.push(child);
    line.push(child);
    node = child;
  }
  const last = await fetchPosition(node);
  if (!last) return;
  last.moves.forEach((m, i) => {
    line[i].texts = m.text;
    line[i].coords = m.coords;
  });
  $("#analysis-title").textContent = [t("analysis.title"), gameName(view.game)].join(" · ");
  const gameLink = $<HTMLAnchorElement>("#game-link");
  if (view.gameId) {
    gameLink.href = `/g/${view.gameId}`;
    gameLink.hidden = false;
  }
  wireControls();
  connect();
  // Opens at the end of the game's moves, or at the ply asked for.
  let at: TreeNode = view.root;
  if (ply === null) at = node;
  else for (let i = 0; i < ply && at.children[0]; i++) at = at.children[0];
  await goTo(at);
  if (reviewable) setupReview();
  $("#board").focus({ preventScroll: true });
}

function wireControls(): void {
  const engineOn = $<HTMLInputElement>("#engine-on");
  engineOn.checked = view.engineOn;
  engineOn.addEventListener("change", () => {
    view.engineOn = engineOn.checked;
    localStorage.setItem("chuhe.engine", view.engineOn ? "on" : "off");
    analyse();
  });
  const multipv = $<HTMLSelectElement>("#multipv");
  multipv.value = String(view.multipv);
  multipv.addEventListener("change", () => {
    view.multipv = Number(multipv.value);
    localStorage.setItem("chuhe.multipv", multipv.value);
    analyse();
  });
  $("#first-ply").addEventListener("click", () => goTo(view.root));
  $("#prev-ply").addEventListener("click", () => view.node.parent && goTo(view.node.parent));
  $("#next-ply").addEventListener("click", () => view.node.children[0] && goTo(view.node.children[0]));
  $("#last-ply").addEventListener("click", () => goTo(lineEnd(view.node)));
  $("#promote").addEventListener("click", promoteVariation);
  $("#delete").addEventListener("click", deleteFromHere);
  $("#flip").addEventListener("click", () => {
    view.flipped = !view.flipped;
    view.positions.clear();
    goTo(view.node);
  });
  $("#glyphs").addEventListener("click", () => {
    view.glyphs = view.glyphs === "chinese" ? "latin" : "chinese";
    localStorage.setItem("chuhe.glyphs", view.glyphs);
    view.positions.clear();
    glyphsLabel();
    goTo(view.node);
  });
  glyphsLabel();
  $("#promotion-cancel").addEventListener("click", () => $<HTMLDialogElement>("#promotion").close());
  $("#promotion").addEventListener("close", () => {
    if ($<HTMLDialogElement>("#promotion").returnValue !== "chosen") view.board?.revert();
    $<HTMLDialogElement>("#promotion").returnValue = "";
  });
  document.addEventListener("keydown", onPageKey);
}

function glyphsLabel(): void {
  $("#glyphs").textContent = view.glyphs === "chinese" ? t("play.latin") : t("play.chinese");
}

/** The end of the main line below `node`. */
function lineEnd(node: TreeNode): TreeNode {
  while (node.children[0]) node = node.children[0];
  return node;
}

/** ←/→ step back and along the line, ↑/↓ switch between the variations of a move, Home and
 * End go to the start and to the end of the line. */
function onPageKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
  if (view.board?.keyboardCursor || event.altKey || event.ctrlKey || event.metaKey) return;
  const node = view.node;
  const siblings = node.parent ? node.parent.children : [node];
  const i = siblings.indexOf(node);
  const step: Record<string, () => TreeNode | null> = {
    ArrowLeft: () => node.parent,
    ArrowRight: () => node.children[0] || null,
    ArrowUp: () => siblings[i - 1] || null,
    ArrowDown: () => siblings[i + 1] || null,
    Home: () => view.root,
    End: () => lineEnd(node),
  };
  const go = step[event.key];
  if (!go) return;
  event.preventDefault();
  const next = go();
  if (next) goTo(next);
}

/** The position at `node`, from the cache or the server. */
async function fetchPosition(node: TreeNode): Promise<PositionView | null> {
  const moves = pathOf(node);
  const key = moves.join(" ");
  const cached = view.positions.get(key);
  if (cached) return cached;
  try {
    const position = await api<PositionView>("POST", "/api/analysis/position", {
      game: view.game,
      position: view.start,
      moves,
      flip: view.flipped,
      glyphs: view.glyphs,
    });
    view.positions.set(key, position);
    return position;
  } catch (e) {
    showError(errorText(e));
    return null;
  }
}

/** Shows the position at `node` and asks the engine about it. */
async function goTo(node: TreeNode): Promise<void> {
  const request = ++view.request;
  const board = $("#board");
  board.setAttribute("aria-busy", "true");
  const position = await fetchPosition(node);
  if (!position || request !== view.request) return;
  const before = view.node;
  view.node = node;
  view.position = position;
  showError("");
  // A move new to the tree takes its texts from the position that follows it.
  const last = position.moves[position.moves.length - 1];
  if (node.parent && last && !node.texts.uci) {
    node.texts = last.text;
    node.coords = last.coords;
  }
  view.board!.setPicture(position.svg);
  view.board!.setMoves(position.result ? [] : position.legal);
  board.dataset.ply = String(position.ply);
  board.setAttribute("aria-busy", "false");
  if (node.parent === before && node !== before) {
    playSound(position.result ? "end" : position.check ? "check" : (node.texts.pmn || "").includes("+") ? "capture" : "move");
  }
  $<HTMLInputElement>("#feen").value = position.feen;
  $("#fen-row").hidden = !position.fen;
  $<HTMLInputElement>("#fen").value = position.fen || "";
  $<HTMLAnchorElement>("#edit-link").href = `/editor?game=${encodeURIComponent(view.game)}&position=${encodeURIComponent(position.feen)}`;
  $("#ply-label").textContent = String(position.ply);
  $("#analysis-status").textContent = position.result
    ? resultText(view.game, position.result, position.turn)
    : [t("play.to_move", { side: sideName(view.game, position.turn) }), position.check ? t("play.check") : null].filter(Boolean).join(" — ");
  document.title = t("title.analysis_turn", { turn: sideName(view.game, position.turn), game: gameName(view.game) });
  renderTree();
  renderReviewMarks();
  analyse();
}

/** Plays `uci` from the current node: follows the tree where the move is there, else adds a
 * variation. */
function playMove(uci: string): void {
  const node = view.node;
  let child = node.children.find((c) => c.uci === uci);
  if (!child) {
    child = { uci, texts: {}, coords: "", parent: node, children: [], gameMove: false };
    node.children.push(child);
  }
  goTo(child);
}

/** Plays the first `count` moves of an engine line into the tree. */
function playLine(line: Line, count: number): void {
  let node = view.node;
  const uci = line.pv.uci || [];
  for (let i = 0; i < count && i < uci.length; i++) {
    let child = node.children.find((c) => c.uci === uci[i]);
    if (!child) {
      const texts: Record<string, string> = {};
      for (const [notation, moves] of Object.entries(line.pv)) if (moves[i]) texts[notation] = moves[i];
      child = { uci: uci[i], texts, coords: coordinates(texts.pmn || uci[i]), parent: node, children: [], gameMove: false };
      node.children.push(child);
    }
    node = child;
  }
  goTo(node);
}

function choosePromotion(moves: BoardMove[]): void {
  const box = $("#promotion-choices");
  box.textContent = "";
  const labels = moves.map((m) => promotionLabel(view.game, m.uci));
  $("#promotion p").textContent = t(labels.some((l) => l) ? "play.promote_to" : "play.promote");
  moves.forEach((m, i) => {
    const button = h("button", {}, labels[i] || m.pmn);
    button.addEventListener("click", () => {
      $<HTMLDialogElement>("#promotion").close("chosen");
      playMove(m.uci);
    });
    box.append(button);
  });
  $<HTMLDialogElement>("#promotion").showModal();
}

/** Makes the variation the current move is in the main line of its branch. */
function promoteVariation(): void {
  for (let n: TreeNode = view.node; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    const i = siblings.indexOf(n);
    if (i > 0) {
      siblings.splice(i, 1);
      siblings.unshift(n);
      break;
    }
  }
  renderTree();
}

/** Removes the current move and what follows it (the game's own moves stay). */
function deleteFromHere(): void {
  const node = view.node;
  if (!node.parent || node.gameMove) return;
  node.parent.children = node.parent.children.filter((c) => c !== node);
  goTo(node.parent);
}

// ------------------------------------------------------------------ the tree

function moveLabel(node: TreeNode): string {
  return moveText(node.texts, node.coords || node.uci, view.notation);
}

/** The tree as text with buttons: the main line, each variation in brackets after the move
 * it replaces. */
function renderTree(): void {
  const box = $("#tree");
  box.textContent = "";
  // The side that moves first from the root: the current position's turn, ply by ply back.
  const current = view.position;
  const back = current ? current.ply % 2 : 0;
  const firstTurn: Side = !current ? "first" : back === 0 ? current.turn : other(current.turn);
  const line = (start: TreeNode, into: HTMLElement) => {
    let node = start;
    let first = true;
    while (node.children.length) {
      const [main, ...others] = node.children;
      into.append(moveButton(main, firstTurn, first));
      first = false;
      for (const variation of others) {
        const block = h("span", { className: "variation" }, "(");
        block.append(moveButton(variation, firstTurn, true));
        line(variation, block);
        block.append(")");
        into.append(block);
        first = true;
      }
      node = main;
    }
  };
  const main = h("div", { className: "tree-line" });
  line(view.root, main);
  box.append(main);
  if (!view.root.children.length) box.append(h("p", { className: "muted" }, t("analysis.no_moves")));
  box.querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

function moveButton(node: TreeNode, firstTurn: Side, numbered: boolean): HTMLElement {
  const ply = plyOf(node);
  // Move numbers count the first player's moves; a line starting with the second player's
  // move shows "1…".
  const offset = firstTurn === "first" ? 0 : 1;
  const index = ply - 1 + offset;
  const number = Math.floor(index / 2) + 1;
  const firstMove = index % 2 === 0;
  const label = firstMove ? `${number}. ` : numbered ? `${number}… ` : "";
  const mark = reviewMark(node);
  const button = h(
    "button",
    { className: "move" + (node === view.node ? " current" : "") + (mark ? ` ${mark}` : ""), "data-ply": ply, "data-uci": node.uci },
    label,
    moveLabel(node),
    mark ? h("span", { className: "glyph" }, SYMBOL[mark as MoveClass]) : null,
  );
  button.addEventListener("click", () => goTo(node));
  return button;
}

// ------------------------------------------------------------------ the engine

function connect(): void {
  const socket = new WebSocket(socketUrl("/api/analysis/ws"));
  view.socket = socket;
  socket.addEventListener("open", () => analyse());
  socket.addEventListener("message", (event) => onEngineMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    view.socket = null;
    setEngineState("analysis.disconnected");
    setTimeout(connect, 1500);
  });
}

/** Asks the engine about the current position (or stops it). */
function analyse(): void {
  const position = view.position;
  view.lines = [];
  view.searchId += 1;
  renderLines();
  const socket = view.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN || !position) return;
  if (!view.engineOn || position.result) {
    socket.send(JSON.stringify({ type: "stop" }));
    setEngineState(view.engineOn ? "analysis.over" : "analysis.off");
    renderEval();
    return;
  }
  setEngineState("analysis.starting");
  socket.send(
    JSON.stringify({ type: "analyse", id: view.searchId, game: view.game, position: view.start, moves: pathOf(view.node), multipv: view.multipv }),
  );
}

function setEngineState(key: Key, params: Record<string, unknown> = {}): void {
  view.engineState = t(key, params);
  $("#engine-state").textContent = view.engineState;
}

function onEngineMessage(message: Record<string, any>): void {
  if (message.id !== undefined && message.id !== view.searchId) return;
  switch (message.type) {
    case "queued":
      setEngineState("analysis.queued", { ahead: message.ahead });
      break;
    case "line": {
      const line = message as Line;
      view.lines[line.multipv - 1] = line;
      // A new iteration drops the deeper lines of the last one that it has not reached.
      view.lines = view.lines.filter((l) => l && (l.multipv <= line.multipv || l.depth >= line.depth - 1));
      setEngineState("analysis.depth", { depth: line.depth, speed: Math.round(line.nps / 1000) });
      renderLines();
      break;
    }
    case "paused":
      setEngineState("analysis.paused");
      break;
    case "done":
      setEngineState(message.reason === "over" ? "analysis.over" : "analysis.done", { depth: view.lines[0]?.depth ?? 0 });
      break;
    case "error":
      setEngineState("analysis.error");
      showError(errorText(new ApiFailure(message.error.code, message.error.params || {}, message.error.message, 0)));
      break;
  }
}

/** A score from the side to move's view, written from the first player's: +1.25, #3. */
function scoreText(score: Score, turn: Side): string {
  const sign = turn === "first" ? 1 : -1;
  if ("mate" in score) {
    const m = score.mate * sign;
    return m > 0 ? `#${m}` : `#-${-m}`;
  }
  const cp = (score.cp * sign) / 100;
  return (cp > 0 ? "+" : "") + cp.toFixed(2);
}

function renderLines(): void {
  const list = $("#lines");
  list.textContent = "";
  const position = view.position;
  if (!position) return;
  const turn = position.turn;
  for (const line of view.lines) {
    if (!line) continue;
    const moves = lineText(line.pv, view.notation);
    const item = h("li", { className: "line", "data-multipv": line.multipv }, h("span", { className: "score" }, scoreText(line.score, turn)), " ");
    moves.slice(0, 12).forEach((text, i) => {
      const button = h("button", { className: "pv-move" }, text);
      button.addEventListener("click", () => playLine(line, i + 1));
      item.append(button, " ");
    });
    item.append(h("span", { className: "muted" }, t("analysis.depth_short", { depth: line.depth })));
    list.append(item);
  }
  renderEval();
  renderArrows();
}

/** The evaluation bar: the first player's expected score by the engine's win/draw/loss
 * model, and the best line's score. */
function renderEval(): void {
  const best = view.lines.find(Boolean);
  const position = view.position;
  const fill = $("#eval-fill");
  const text = $("#eval-text");
  const bar = $("#eval-bar");
  bar.classList.toggle("flipped", view.flipped);
  if (!best || !position) {
    const over = position?.result;
    const expected = over ? (over.winner === "first" ? 1000 : over.winner === "second" ? 0 : 500) : 500;
    fill.style.height = `${expected / 10}%`;
    text.textContent = over ? (over.winner === "none" ? "½" : over.winner === "first" ? "1–0" : "0–1") : "";
    bar.dataset.expected = String(expected);
    return;
  }
  const mover = best.wdl.win + best.wdl.draw / 2;
  const expected = position.turn === "first" ? mover : 1000 - mover;
  fill.style.height = `${expected / 10}%`;
  text.textContent = scoreText(best.score, position.turn);
  bar.dataset.expected = String(Math.round(expected));
  bar.setAttribute("aria-label", `${t("analysis.eval_bar")}: ${text.textContent}`);
}

function renderArrows(): void {
  const arrows: Arrow[] = [];
  for (const line of view.lines) {
    const uci = line?.pv.uci?.[0];
    if (!uci) continue;
    const squares = uci.match(/[a-z]+\d+/g);
    if (squares && squares.length >= 2) arrows.push({ from: squares[0], to: squares[1], weight: line.multipv });
  }
  view.board?.setArrows(arrows.reverse());
}

// ------------------------------------------------------------------ the review

function setupReview(): void {
  $("#review").hidden = false;
  $("#review-start").addEventListener("click", requestReview);
  // A review made before shows at once.
  loadReview(false);
}

async function requestReview(): Promise<void> {
  $<HTMLButtonElement>("#review-start").disabled = true;
  try {
    const review = await api<Review>("POST", `/api/games/${view.gameId}/review`);
    showReview(review);
  } catch (e) {
    $<HTMLButtonElement>("#review-start").disabled = false;
    showError(errorText(e));
  }
}

async function loadReview(quiet: boolean): Promise<void> {
  try {
    const review = await api<Review | { state: "none" }>("GET", `/api/games/${view.gameId}/review`);
    if (review.state !== "none") showReview(review);
  } catch (e) {
    if (!(e instanceof ApiFailure && e.code === "no_review") && !quiet) showError(errorText(e));
  }
}

function showReview(review: Review): void {
  view.review = review;
  const start = $<HTMLButtonElement>("#review-start");
  start.hidden = true;
  if (review.state !== "done") {
    $("#review-progress").textContent = t("review.progress", { done: review.done, total: review.total });
    setTimeout(() => loadReview(true), 1000);
    return;
  }
  $("#review-progress").textContent = t("review.budget", { nodes: review.nodes.toLocaleString() });
  renderChart(review);
  renderPlayers(review);
  renderTree();
  renderReviewMarks();
}

/** The class of a game move in the review, or none. */
function reviewMark(node: TreeNode): MoveClass | null {
  const review = view.review;
  if (!review || review.state !== "done" || !node.gameMove) return null;
  const m = review.moves[plyOf(node) - 1];
  return m && m.uci === node.uci && SYMBOL[m.class] ? m.class : null;
}

/** Marks the chart's current ply. */
function renderReviewMarks(): void {
  const chart = document.querySelector("#review-chart svg");
  if (!chart) return;
  const ply = plyOf(view.node);
  chart.querySelectorAll(".now").forEach((e) => e.remove());
  // Only the game's own moves are on the chart.
  if (view.node !== view.root && !view.node.gameMove) return;
  const x = Number(chart.getAttribute("data-step")) * ply;
  const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
  line.setAttribute("class", "now");
  line.setAttribute("x1", String(x));
  line.setAttribute("x2", String(x));
  line.setAttribute("y1", "0");
  line.setAttribute("y2", "100");
  chart.append(line);
}

/** The evaluation chart: the first player's expected score after each move (up: the first
 * player better), the mistakes marked; a click goes to that move. */
function renderChart(review: Review): void {
  const box = $("#review-chart");
  box.textContent = "";
  const n = review.positions.length;
  if (n < 2) return;
  const width = 600;
  const step = width / (n - 1);
  const y = (expected: number) => 100 - expected / 10;
  const points = review.positions.map((p, i) => `${(i * step).toFixed(1)},${y(p.expected).toFixed(1)}`);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} 100`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("data-step", String(step));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("review.chart"));
  const area = document.createElementNS(NS, "polygon");
  area.setAttribute("class", "area");
  area.setAttribute("points", [`0,100`, ...points, `${width},100`].join(" "));
  const middle = document.createElementNS(NS, "line");
  middle.setAttribute("class", "middle");
  for (const [k, v] of Object.entries({ x1: 0, x2: width, y1: 50, y2: 50 })) middle.setAttribute(k, String(v));
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("class", "curve");
  line.setAttribute("points", points.join(" "));
  svg.append(area, middle, line);
  for (const m of review.moves) {
    if (!SYMBOL[m.class]) continue;
    const dot = document.createElementNS(NS, "circle");
    dot.setAttribute("class", `mark ${m.class}`);
    dot.setAttribute("cx", (m.ply * step).toFixed(1));
    dot.setAttribute("cy", y(review.positions[m.ply]?.expected ?? 500).toFixed(1));
    dot.setAttribute("r", "3.5");
    dot.setAttribute("data-ply", String(m.ply));
    svg.append(dot);
  }
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width) * (n - 1));
    let node = view.root;
    for (let i = 0; i < ply && node.children[0]; i++) node = node.children[0];
    goTo(node);
  });
  box.append(svg);
}

function renderPlayers(review: Review): void {
  const table = $("#review-players");
  table.textContent = "";
  const head = h("tr", {}, h("th"), h("th", {}, t("review.accuracy")), h("th", {}, t("review.inaccuracies")), h("th", {}, t("review.mistakes")), h("th", {}, t("review.blunders")));
  table.append(head);
  for (const side of ["first", "second"] as Side[]) {
    const p = review.players[side];
    table.append(
      h(
        "tr",
        { "data-side": side },
        h("th", {}, sideName(view.game, side)),
        h("td", { className: "accuracy" }, `${p.accuracy.toFixed(1)}%`),
        h("td", { className: "inaccuracies" }, p.inaccuracies),
        h("td", { className: "mistakes" }, p.mistakes),
        h("td", { className: "blunders" }, p.blunders),
      ),
    );
  }
}

function showError(text: string): void {
  $("#analysis-error").textContent = text;
}
