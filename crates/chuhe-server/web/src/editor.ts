// The board editor: place and remove pieces, choose the side to move, and see at once
// whether the rules accept the position — the server checks it with the rules core and
// answers a refusal with the core's own typed reason. An accepted position opens on the
// analysis board. The pieces are the server's own pictures (those of the start position),
// moved to where the player puts them.

import { api } from "./api";
import { $, fill, h } from "./dom";
import { t } from "./i18n";
import { errorText, gameName, Side, sideName } from "./words";

const SVG = "http://www.w3.org/2000/svg";
const GAMES = ["xiangqi", "xiangqi-capture", "xiongqi"];

interface StartView {
  feen: string;
  svg: string;
}

const editor = {
  game: "xiangqi",
  /** The pieces placed: square → PIN token (`R`, `g^`, `+S`). */
  placement: new Map<string, string>(),
  files: 9,
  ranks: 10,
  turn: "first" as Side,
  tool: "R" as string, // a token, or "" for the eraser
  /** The start position's picture and a piece picture for each token. */
  picture: "",
  templates: new Map<string, { html: string; x: number; y: number }>(),
  check: 0,
  valid: false,
  /** The start position's FEEN. */
  start: "",
};

const FILES = "abcdefghijkl";

/** Reads a FEEN's placement: square → token. */
function readPlacement(feen: string): { placement: Map<string, string>; files: number; ranks: number } {
  const ranks = feen.split(" ")[0].split("/");
  const placement = new Map<string, string>();
  let files = 0;
  ranks.forEach((rank, i) => {
    const number = ranks.length - i;
    let file = 0;
    for (const token of rank.match(/\d+|[+-]?[A-Za-z]\^?'?/g) || []) {
      if (/^\d+$/.test(token)) file += Number(token);
      else placement.set(`${FILES[file++]}${number}`, token);
    }
    files = Math.max(files, file);
  });
  return { placement, files, ranks: ranks.length };
}

/** The FEEN of the board being edited (hands empty). */
function feen(): string {
  const rows: string[] = [];
  for (let rank = editor.ranks; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < editor.files; file++) {
      const token = editor.placement.get(`${FILES[file]}${rank}`);
      if (!token) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += token;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return `${rows.join("/")} / ${editor.turn === "first" ? "X/x" : "x/X"}`;
}

function layout(main: HTMLElement): void {
  fill(
    main,
    h(
      "section",
      { id: "editor" },
      h(
        "div",
        { className: "board-column" },
        h("div", { id: "palette-second", className: "palette", role: "toolbar", "aria-label": sideName(editor.game, "second") }),
        h("div", { id: "board", role: "application", "aria-label": t("editor.board") }),
        h("div", { id: "palette-first", className: "palette", role: "toolbar", "aria-label": sideName(editor.game, "first") }),
      ),
      h(
        "div",
        { className: "side-column" },
        h("h1", { className: "game-title" }, t("editor.title")),
        h(
          "label",
          {},
          t("editor.game"),
          " ",
          h("select", { id: "editor-game" }, ...GAMES.map((g) => h("option", { value: g }, gameName(g)))),
        ),
        h(
          "label",
          {},
          t("editor.turn"),
          " ",
          h("select", { id: "editor-turn" }, h("option", { value: "first" }), h("option", { value: "second" })),
        ),
        h(
          "div",
          { className: "actions" },
          h("button", { id: "editor-eraser", "aria-pressed": "false" }, t("editor.eraser")),
          h("button", { id: "editor-start" }, t("editor.start")),
          h("button", { id: "editor-clear" }, t("editor.clear")),
        ),
        h("label", {}, "FEEN ", h("input", { id: "editor-feen", autocomplete: "off", spellcheck: "false" })),
        h("p", { id: "editor-verdict", role: "status", "aria-live": "polite" }),
        h("div", { className: "actions" }, h("a", { id: "editor-analyse", className: "button" }, t("editor.analyse"))),
      ),
    ),
  );
}

/** Opens the editor: `?game=…&position=FEEN` (default: the game's start). */
export async function setupEditor(main: HTMLElement): Promise<void> {
  const query = new URLSearchParams(location.search);
  editor.game = GAMES.includes(query.get("game") || "") ? query.get("game")! : "xiangqi";
  layout(main);
  document.title = t("title.editor");
  $<HTMLSelectElement>("#editor-game").value = editor.game;
  $("#editor-game").addEventListener("change", () => {
    location.assign(`/editor?game=${$<HTMLSelectElement>("#editor-game").value}`);
  });
  const turn = $<HTMLSelectElement>("#editor-turn");
  turn.options[0].textContent = t("play.to_move", { side: sideName(editor.game, "first") });
  turn.options[1].textContent = t("play.to_move", { side: sideName(editor.game, "second") });
  turn.addEventListener("change", () => {
    editor.turn = turn.value as Side;
    changed();
  });
  try {
    const start = await api<StartView>("POST", "/api/analysis/position", { game: editor.game, position: "start", moves: [] });
    learnPieces(start);
  } catch (e) {
    $("#editor-verdict").textContent = errorText(e);
    return;
  }
  load(query.get("position") || "");
  $("#board").addEventListener("click", (event) => {
    const square = (event.target as HTMLElement).dataset?.square;
    if (square) place(square);
  });
  $("#editor-eraser").addEventListener("click", () => choose(""));
  $("#editor-start").addEventListener("click", () => load(""));
  $("#editor-clear").addEventListener("click", () => {
    editor.placement.clear();
    changed();
  });
  $("#editor-feen").addEventListener("change", () => load($<HTMLInputElement>("#editor-feen").value.trim()));
}

/** Takes the start position's picture and one picture of each piece in it. */
function learnPieces(start: StartView): void {
  const box = document.createElement("div");
  box.innerHTML = start.svg;
  const { placement, files, ranks } = readPlacement(start.feen);
  editor.start = start.feen;
  editor.files = files;
  editor.ranks = ranks;
  for (const g of box.querySelectorAll<SVGGElement>("g.piece")) {
    const token = placement.get(g.dataset.square || "");
    const circle = g.querySelector("circle");
    if (!token || !circle || editor.templates.has(token)) continue;
    editor.templates.set(token, { html: g.outerHTML, x: Number(circle.getAttribute("cx")), y: Number(circle.getAttribute("cy")) });
  }
  box.querySelectorAll("g.piece, .last-move, .check").forEach((e) => e.remove());
  editor.picture = box.innerHTML;
  // The soldier across the river (+S) wears the soldier's picture with a mark.
  for (const soldier of ["S", "s"]) {
    const base = editor.templates.get(soldier);
    if (base) editor.templates.set(`+${soldier}`, { ...base, html: base.html.replace("</g>", `<text class="promoted" x="${base.x + 14}" y="${base.y - 12}" font-size="16">+</text></g>`) });
  }
  for (const side of ["first", "second"] as Side[]) {
    const palette = $(`#palette-${side}`);
    palette.textContent = "";
    for (const [token, picture] of editor.templates) {
      const upper = token.replace(/[^A-Za-z]/g, "") === token.replace(/[^A-Za-z]/g, "").toUpperCase();
      if (upper !== (side === "first")) continue;
      const mini = document.createElementNS(SVG, "svg");
      mini.setAttribute("viewBox", `${picture.x - 25} ${picture.y - 25} 50 50`);
      mini.innerHTML = picture.html;
      const button = h("button", { className: "piece-tool", "data-token": token, "aria-pressed": "false", title: token, "aria-label": token });
      button.append(mini);
      button.addEventListener("click", () => choose(token));
      palette.append(button);
    }
  }
  choose(editor.tool);
}

function choose(tool: string): void {
  editor.tool = tool;
  document.querySelectorAll<HTMLElement>(".piece-tool").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.token === tool)));
  $("#editor-eraser").setAttribute("aria-pressed", String(tool === ""));
}

/** Loads a FEEN (empty: the start position) into the editor. */
function load(text: string): void {
  const source = text || editor.start;
  editor.placement = readPlacement(source).placement;
  // The style-turn field: `X/x` when the first player is to move, `x/X` the second.
  editor.turn = source.split(" ")[2]?.startsWith("x") ? "second" : "first";
  $<HTMLSelectElement>("#editor-turn").value = editor.turn;
  changed();
}

/** Puts the chosen piece on `square` (the same piece again, or the eraser, takes it off). */
function place(square: string): void {
  if (!editor.tool || editor.placement.get(square) === editor.tool) editor.placement.delete(square);
  else editor.placement.set(square, editor.tool);
  changed();
}

function changed(): void {
  draw();
  const text = feen();
  $<HTMLInputElement>("#editor-feen").value = text;
  const link = $<HTMLAnchorElement>("#editor-analyse");
  link.href = `/analysis?game=${encodeURIComponent(editor.game)}&position=${encodeURIComponent(text)}`;
  validate(text);
}

/** Draws the board with the pieces placed. */
function draw(): void {
  const board = $("#board");
  board.innerHTML = editor.picture;
  const svg = board.querySelector("svg");
  if (!svg) return;
  const pieces = document.createElementNS(SVG, "g");
  pieces.setAttribute("class", "placed");
  pieces.setAttribute("pointer-events", "none");
  for (const [square, token] of editor.placement) {
    const target = board.querySelector(`rect.square[data-square="${square}"]`);
    const picture = editor.templates.get(token);
    if (!target || !picture) continue;
    const x = Number(target.getAttribute("x")) + Number(target.getAttribute("width")) / 2;
    const y = Number(target.getAttribute("y")) + Number(target.getAttribute("height")) / 2;
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("transform", `translate(${x - picture.x} ${y - picture.y})`);
    g.setAttribute("data-square", square);
    g.setAttribute("data-token", token);
    g.innerHTML = picture.html;
    pieces.append(g);
  }
  svg.insertBefore(pieces, svg.querySelector("rect.square"));
}

/** Asks the server whether the rules accept the position; shows its answer. */
async function validate(text: string): Promise<void> {
  const check = ++editor.check;
  const verdict = $("#editor-verdict");
  const link = $<HTMLAnchorElement>("#editor-analyse");
  try {
    await api("POST", "/api/analysis/position", { game: editor.game, position: text, moves: [] });
    if (check !== editor.check) return;
    editor.valid = true;
    verdict.textContent = t("editor.valid");
    verdict.className = "ok";
  } catch (e) {
    if (check !== editor.check) return;
    editor.valid = false;
    verdict.textContent = errorText(e);
    verdict.className = "error";
  }
  link.classList.toggle("disabled", !editor.valid);
  link.setAttribute("aria-disabled", String(!editor.valid));
  link.tabIndex = editor.valid ? 0 : -1;
}
