// A game: the board (board.ts: the SVG the server draws, with the page's marks over it),
// the players and their clocks, the moves, and what the viewer may do — exactly what the
// server's `can` says. While the other side is to move a player may premove. ←/→/Home/End
// step through the moves; a finished game opens on the analysis board.

import { api, ApiFailure, socketUrl } from "./api";
import { Board, BoardMove } from "./board";
import { $, fill, h, link } from "./dom";
import { t } from "./i18n";
import { hasGlyphs, isRules, promotionLabel } from "./kinds";
import { chosenNotation, moveText as notationText, Notation, notationSelect } from "./notation";
import { playSound, setSoundOn, soundOn } from "./sound";
import { profileUrl, refresh as refreshMe } from "./session";
import { Clock, clockText, errorText, gameName, other, Result, resultText, Side, sideName } from "./words";

interface Player {
  name: string | null;
  guest: boolean;
  engine: number | null;
  rating: number | null;
  provisional: boolean;
  diff: number | null;
}

interface Can {
  move: boolean;
  resign: boolean;
  abort: boolean;
  offer_draw: boolean;
  answer_draw: boolean;
  take_back: boolean;
  rematch: boolean;
  answer_rematch: boolean;
}

interface MoveView {
  ply: number;
  text: Record<string, string>;
  coords: string;
  time_ms: number;
}

interface Legal {
  uci: string;
  from: string;
  to: string;
  pmn: string;
}

interface ClockView extends Clock {
  remaining_ms: [number, number];
  running: Side | null;
  first_move_ms: number | null;
}

export interface GameState {
  id: string;
  game: string;
  opponent: "engine" | "friend" | "record";
  engine: { level: number; side: Side } | null;
  players: [Player, Player];
  rated: boolean;
  you: Side | null;
  can: Can;
  invite: string | null;
  watch: string;
  feen: string;
  fen: string | null;
  turn: Side;
  ply: number;
  check: boolean;
  moves: MoveView[];
  legal: Legal[];
  result: Result | null;
  clock: ClockView | null;
  draw_offer: Side | null;
  rematch: { offer: Side | null; game: string | null };
  thinking: boolean;
  notice: { code: string; side: Side; text: string } | null;
  version: number;
}

type Message = Record<string, unknown> & { type: string };

const play = {
  id: "",
  state: null as GameState | null,
  socket: null as WebSocket | null,
  viewPly: null as number | null, // null: the current position; a number: replaying an earlier one
  board: null as Board | null,
  flipped: null as boolean | null,
  glyphs: localStorage.getItem("chuhe.glyphs") || "chinese",
  clockBase: 0,
  boardRequest: 0,
  seatTaken: false,
  following: false,
  importedAs: null as string | null,
  notation: "wxf" as Notation,
};

/** Builds the game's page in `main`. */
function layout(main: HTMLElement): void {
  const nav = (id: string, label: string, text: string) =>
    h("button", { id, title: label, "aria-label": label }, text);
  fill(
    main,
    h(
      "section",
      { id: "play" },
      h(
        "div",
        { className: "board-column" },
        h("div", { className: "player-bar top", id: "player-top" }),
        h("div", { className: "clock top", id: "clock-top" }),
        h("div", { id: "board", tabindex: "0", role: "application", "aria-label": t("play.board") }),
        h("div", { className: "clock bottom", id: "clock-bottom" }),
        h("div", { className: "player-bar bottom", id: "player-bottom" }),
        h(
          "div",
          { className: "replay", id: "replay" },
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
        h("p", { id: "game-title", className: "game-title" }),
        h("div", { id: "banner", hidden: true, role: "status" }),
        h("p", { id: "status", role: "status", "aria-live": "polite" }),
        h("p", { id: "notice", role: "status" }),
        h(
          "form",
          { id: "type-move" },
          h("label", { for: "move-input" }, t("play.type_move")),
          h("input", { id: "move-input", autocomplete: "off", spellcheck: "false", placeholder: "h3e3, h3-e3, C2=5" }),
          h("button", { type: "submit" }, t("play.play")),
        ),
        h(
          "div",
          { className: "actions" },
          // Shown by what the first state allows (not before it: no button the game refuses).
          h("button", { id: "resign", hidden: true }, t("play.resign")),
          h("button", { id: "abort", hidden: true }, t("play.abort")),
          h("button", { id: "draw-offer", hidden: true }, t("play.offer_draw")),
          h("button", { id: "draw-accept", hidden: true }, t("play.accept_draw")),
          h("button", { id: "draw-decline", hidden: true }, t("play.decline")),
          h("button", { id: "takeback", hidden: true }, t("play.take_back")),
          h("button", { id: "rematch", hidden: true }, t("play.rematch")),
          h("button", { id: "rematch-accept", hidden: true }, t("play.accept_rematch")),
          h("button", { id: "rematch-decline", hidden: true }, t("play.decline")),
          h("a", { id: "rematch-link", hidden: true, className: "button" }, t("play.to_rematch")),
          h("button", { id: "flip" }, t("play.flip")),
          h("button", { id: "glyphs" }, t("play.latin")),
          h("button", { id: "sound", "aria-pressed": "true" }, t("play.sound_off")),
          h("a", { id: "analyse-link", hidden: true, className: "button" }, t("play.analyse")),
        ),
        h(
          "div",
          { id: "invite", hidden: true },
          h("p", {}, t("play.invite")),
          h("div", { className: "copy-row" }, h("input", { id: "invite-link", readonly: true }), h("button", { id: "copy-invite", type: "button" }, t("play.copy"))),
        ),
        h(
          "p",
          { className: "links" },
          t("play.spectators"),
          " ",
          h("a", { id: "watch-link", href: "#" }, t("play.watch_link")),
          " · ",
          h("a", { id: "pcn-link", href: "#" }, t("play.download_pcn")),
          h("span", { id: "pgn-item", hidden: true }, " · ", h("a", { id: "pgn-link", href: "#" }, t("play.download_pgn"))),
        ),
        notationSelect((n) => {
          play.notation = n;
          renderMoves();
        }),
        h(
          "table",
          { id: "moves", "aria-label": t("play.moves") },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { id: "first-head" }), h("th", { id: "second-head" }))),
          h("tbody"),
        ),
        h(
          "details",
          {},
          h("summary", {}, t("play.position")),
          h("label", {}, "FEEN ", h("input", { id: "feen", readonly: true })),
          h("label", { id: "fen-row" }, "FEN ", h("input", { id: "fen", readonly: true })),
        ),
        h("p", { className: "error", id: "play-error", role: "alert" }),
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

/** Opens game `id` in `main`; `invite`: the code of an invite link opened. */
export function setupGame(main: HTMLElement, id: string, invite: string | null): void {
  layout(main);
  play.id = id;
  const format = new URLSearchParams(location.search).get("format");
  if (format) {
    play.importedAs = format.toUpperCase();
    history.replaceState(null, "", `/g/${id}`);
  }
  play.board = new Board($("#board"), {
    move: (moves) => (moves.length === 1 ? sendMove(moves[0].uci) : choosePromotion(moves)),
  });
  document.addEventListener("keydown", onPageKey);
  $("#resign").addEventListener("click", () => confirm(t("play.resign_confirm")) && send({ type: "resign" }));
  $("#abort").addEventListener("click", () => send({ type: "abort" }));
  $("#draw-offer").addEventListener("click", () => send({ type: "draw", action: "offer" }));
  $("#draw-accept").addEventListener("click", () => send({ type: "draw", action: "accept" }));
  $("#draw-decline").addEventListener("click", () => send({ type: "draw", action: "decline" }));
  $("#takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("#rematch").addEventListener("click", () => send({ type: "rematch", action: "offer" }));
  $("#rematch-accept").addEventListener("click", () => send({ type: "rematch", action: "accept" }));
  $("#rematch-decline").addEventListener("click", () => send({ type: "rematch", action: "decline" }));
  $("#flip").addEventListener("click", () => {
    play.flipped = !play.flipped;
    renderPlayers();
    drawBoard();
    tickClocks();
  });
  $("#glyphs").addEventListener("click", () => {
    play.glyphs = play.glyphs === "chinese" ? "latin" : "chinese";
    localStorage.setItem("chuhe.glyphs", play.glyphs);
    glyphsLabel();
    drawBoard();
  });
  $("#sound").addEventListener("click", () => {
    setSoundOn(!soundOn());
    soundLabel();
  });
  soundLabel();
  $("#copy-invite").addEventListener("click", async () => {
    const input = $<HTMLInputElement>("#invite-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      $("#copy-invite").textContent = t("play.copied");
    } catch {
      document.execCommand?.("copy");
    }
  });
  play.notation = chosenNotation();
  $("#first-ply").addEventListener("click", () => goTo(0));
  $("#prev-ply").addEventListener("click", () => goTo(shownPly() - 1));
  $("#next-ply").addEventListener("click", () => goTo(shownPly() + 1));
  $("#last-ply").addEventListener("click", () => goTo(null));
  $("#type-move").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $<HTMLInputElement>("#move-input").value.trim();
    if (text) sendMove(text);
  });
  $("#promotion-cancel").addEventListener("click", () => $<HTMLDialogElement>("#promotion").close());
  // Closed without a choice (Cancel or Escape): the piece is let go.
  $("#promotion").addEventListener("close", () => {
    const dialog = $<HTMLDialogElement>("#promotion");
    if (dialog.returnValue !== "chosen") {
      play.board?.revert();
      play.board?.select(null);
    }
    dialog.returnValue = "";
  });
  $<HTMLAnchorElement>("#pcn-link").href = `/api/games/${id}/pcn`;
  $<HTMLAnchorElement>("#pgn-link").href = `/api/games/${id}/pgn`;
  $<HTMLAnchorElement>("#analyse-link").href = `/analysis?g=${id}`;
  const open = invite ? join(invite) : Promise.resolve();
  open.finally(() => {
    connect();
    setInterval(tickClocks, 200);
  });
}

/** Takes the seat an invite link opens (or keeps the seat this browser holds). */
async function join(code: string): Promise<void> {
  history.replaceState(null, "", `/g/${play.id}`);
  try {
    await api("POST", `/api/games/${play.id}/join`, { invite: code });
  } catch (e) {
    if (e instanceof ApiFailure && e.code === "seat_taken") play.seatTaken = true;
    else showError(errorText(e));
  }
  await refreshMe();
}

/**
 * Goes to the rematch, once: it is announced both in the answer to the player who made it and
 * in the game's next state, and a second navigation would cancel the first one.
 */
function followRematch(id: string): void {
  if (play.following) return;
  play.following = true;
  location.assign(`/g/${id}`);
}

function connect(): void {
  const socket = new WebSocket(socketUrl(`/api/games/${play.id}/ws`));
  play.socket = socket;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") render(message.state);
    else if (message.type === "error") onRefused(new ApiFailure(message.error.code, message.error.params || {}, message.error.message, 0));
    else if (message.type === "ack" && message.rematch) followRematch(message.rematch);
  });
  socket.addEventListener("close", () => {
    play.socket = null;
    setTimeout(connect, 1000);
  });
  socket.addEventListener("error", () => {
    // Without a socket the page still works through HTTP until it reconnects.
    if (!play.state) refresh();
  });
}

async function refresh(): Promise<void> {
  try {
    render(await api<GameState>("GET", `/api/games/${play.id}`));
  } catch (e) {
    showError(errorText(e));
  }
}

function onRefused(e: ApiFailure): void {
  showError(errorText(e));
  play.board?.revert();
  // A page that was behind reads the game again.
  if (e.code === "stale" || e.code === "game_over") refresh();
}

// Sends an action: over the socket when it is open, else over HTTP.
async function send(message: Message): Promise<void> {
  showError("");
  if (play.socket && play.socket.readyState === WebSocket.OPEN) {
    play.socket.send(JSON.stringify(message));
    return;
  }
  const { type, ...body } = message;
  try {
    const state = await api<GameState & { rematch: { game: string | null } }>("POST", `/api/games/${play.id}/${type}`, body);
    if (type === "rematch" && state.rematch.game) return followRematch(state.rematch.game);
    render(state);
  } catch (e) {
    if (e instanceof ApiFailure) onRefused(e);
    else showError(errorText(e));
  }
}

function sendMove(text: string): void {
  $<HTMLInputElement>("#move-input").value = "";
  send({ type: "move", move: text, ply: play.state!.ply });
}

function showError(text: string): void {
  $("#play-error").textContent = text;
}

function shownPly(): number {
  return play.viewPly === null ? play.state!.ply : play.viewPly;
}

function goTo(ply: number | null): void {
  if (!play.state) return;
  if (ply !== null) ply = Math.max(0, Math.min(ply, play.state.ply));
  play.viewPly = ply === play.state.ply ? null : ply;
  play.board?.select(null);
  boardMoves();
  drawBoard();
  renderMoves();
}

function render(state: GameState): void {
  const first = play.state === null;
  const before = play.state;
  play.state = state;
  if (play.flipped === null) play.flipped = state.you === "second";
  if (play.viewPly !== null && play.viewPly > state.ply) play.viewPly = null;
  play.clockBase = performance.now();
  if (before && before.version !== state.version) sound(before, state);
  const turnName = sideName(state.game, state.turn);
  document.title = state.result
    ? t("title.game", { game: gameName(state.game) })
    : state.you === state.turn
      ? t("title.your_turn", { game: gameName(state.game) })
      : t("title.turn", { turn: t("play.to_move", { side: turnName }), game: gameName(state.game) });
  $("#first-head").textContent = sideName(state.game, "first");
  $("#second-head").textContent = sideName(state.game, "second");
  $("#game-title").textContent = [
    gameName(state.game),
    state.clock ? clockText(state.clock) : null,
    state.opponent === "record" ? null : t(state.rated ? "play.rated" : "play.casual"),
  ]
    .filter(Boolean)
    .join(" · ");
  $("#status").textContent = statusLine(state);
  const notice = state.notice ? t("notice.draw_declined", { side: sideName(state.game, state.notice.side) }) : "";
  $("#notice").textContent = play.seatTaken && !state.you ? t("play.seat_taken") : state.opponent === "record" ? [t("play.review"), play.importedAs ? t("lobby.imported_format", { format: play.importedAs }) : null].filter(Boolean).join(" ") : notice;
  const banner = $("#banner");
  banner.hidden = !state.result;
  if (state.result) banner.textContent = t("play.game_over", { text: resultText(state.game, state.result, state.turn) });
  const can = state.can;
  $<HTMLButtonElement>("#resign").hidden = !can.resign;
  $<HTMLButtonElement>("#abort").hidden = !can.abort;
  $<HTMLButtonElement>("#draw-offer").hidden = !(can.offer_draw || (state.you && !state.result && state.draw_offer === state.you));
  $<HTMLButtonElement>("#draw-offer").disabled = !can.offer_draw;
  $<HTMLButtonElement>("#draw-accept").hidden = !can.answer_draw;
  $<HTMLButtonElement>("#draw-decline").hidden = !can.answer_draw;
  $<HTMLButtonElement>("#takeback").hidden = !can.take_back;
  const rematchOffered = state.you !== null && state.rematch.offer === state.you && !state.rematch.game;
  $<HTMLButtonElement>("#rematch").hidden = !(can.rematch || rematchOffered);
  $<HTMLButtonElement>("#rematch").disabled = rematchOffered;
  $("#rematch").textContent = rematchOffered ? t("play.rematch_offered") : t("play.rematch");
  $<HTMLButtonElement>("#rematch-accept").hidden = !can.answer_rematch;
  $<HTMLButtonElement>("#rematch-decline").hidden = !can.answer_rematch;
  const rematchLink = $<HTMLAnchorElement>("#rematch-link");
  rematchLink.hidden = !state.rematch.game;
  if (state.rematch.game) {
    rematchLink.href = `/g/${state.rematch.game}`;
    // The players go to the rematch once it is made.
    if (state.you && before && !before.rematch.game) followRematch(state.rematch.game);
  }
  $("#type-move").hidden = !can.move;
  $("#invite").hidden = !state.invite;
  if (state.invite) $<HTMLInputElement>("#invite-link").value = location.origin + state.invite;
  $<HTMLAnchorElement>("#watch-link").href = state.watch;
  $("#pgn-item").hidden = state.game !== "xiangqi"; // PGN is written for Xiangqi only
  $("#analyse-link").hidden = !(state.result || state.opponent === "record");
  $<HTMLInputElement>("#feen").value = state.feen;
  $("#fen-row").hidden = !state.fen;
  $<HTMLInputElement>("#fen").value = state.fen || "";
  glyphsLabel();
  // A game read from rule files: the glyph switch only where its pieces have glyphs, and a
  // move of its own as the example of the move box.
  $("#glyphs").hidden = !hasGlyphs(state.game);
  // Its moves have coordinates only: no WXF or Chinese to choose.
  $(".notation-choice").hidden = isRules(state.game);
  const moveInput = $<HTMLInputElement>("#move-input");
  if (isRules(state.game) && !moveInput.dataset.example && state.legal.length) {
    moveInput.placeholder = `${state.legal[0].uci}, ${state.legal[0].pmn}`;
    moveInput.dataset.example = "yes";
  }
  renderPlayers();
  renderMoves();
  playPremove();
  boardMoves(); // at once on the board shown, so that no stale mark outlives the turn
  drawBoard();
  tickClocks();
  if (first) $("#board").focus({ preventScroll: true });
}

// The glyphs button offers the other kind.
function glyphsLabel(): void {
  $("#glyphs").textContent = play.glyphs === "chinese" ? t("play.latin") : t("play.chinese");
}

function soundLabel(): void {
  const on = soundOn();
  $("#sound").textContent = on ? t("play.sound_off") : t("play.sound_on");
  $("#sound").setAttribute("aria-pressed", String(on));
}

/** The sound of what changed: the game's end, a check, a capture or a move. */
function sound(before: GameState, state: GameState): void {
  if (state.result && !before.result) return playSound("end");
  if (state.ply <= before.ply) return;
  if (state.check) return playSound("check");
  const last = state.moves[state.moves.length - 1];
  playSound(last && (last.text.pmn || "").includes("+") ? "capture" : "move");
}

function statusLine(state: GameState): string {
  const rematch = state.rematch.offer && !state.rematch.game ? t("play.rematch_from", { side: sideName(state.game, state.rematch.offer) }) : null;
  if (state.result) return [resultText(state.game, state.result, state.turn), rematch].filter(Boolean).join(" — ");
  const who = sideName(state.game, state.turn);
  const parts = [
    state.you === state.turn ? t("play.your_move", { side: who }) : state.you ? t("play.to_move", { side: who }) : t("play.watching", { side: who }),
  ];
  if (state.check) parts.push(t("play.check"));
  if (state.thinking) parts.push(t("play.thinking"));
  if (state.draw_offer) parts.push(t("play.offers_draw", { side: sideName(state.game, state.draw_offer) }));
  return parts.join(" — ");
}

/** A seat's player: name (a link to their profile), rating, its change. */
function playerLine(state: GameState, side: Side): HTMLElement {
  const p = state.players[side === "first" ? 0 : 1];
  const name =
    p.engine !== null
      ? h("span", { className: "name" }, t("engine.name", { level: p.engine }))
      : p.name
        ? link(profileUrl(p.name), p.name)
        : h("span", { className: "name muted" }, t("player.open_seat"));
  const rating = p.rating !== null ? h("span", { className: "rating" }, `${p.rating}${p.provisional ? "?" : ""}`) : null;
  const diff =
    p.diff !== null && p.diff !== undefined
      ? h("span", { className: p.diff >= 0 ? "diff up" : "diff down" }, p.diff >= 0 ? `+${p.diff}` : String(p.diff))
      : null;
  // A game from rule files whose captures go to the capturer's hand (Sashité's): what the
  // player holds now.
  const held = isRules(state.game) ? handText(state.feen, side) : "";
  const hand = held ? h("span", { className: "hand" }, t("play.in_hand", { pieces: held }), ...dropButtons(state, side)) : null;
  return h("span", { className: `player ${side}` }, h("span", { className: `dot ${side}`, "aria-hidden": "true" }), name, rating, diff, hand);
}

/** Where pieces are dropped from the hands (Minishogi's captures): a button for each piece
 * `side` may drop now, when it is this player's move; pressing it marks the squares on the
 * board, and picking one drops the piece there. */
function dropButtons(state: GameState, side: Side): HTMLElement[] {
  const drops = canMove() && state.turn === side ? state.legal.filter((m) => m.from === m.to) : [];
  const byPiece = new Map<string, BoardMove[]>();
  for (const m of drops) {
    const piece = m.pmn.split("*")[0].toUpperCase();
    byPiece.set(piece, [...(byPiece.get(piece) ?? []), m]);
  }
  return [...byPiece].map(([piece, moves]) => {
    const button = h("button", { className: "drop", title: t("play.drop", { piece }) }, piece);
    button.setAttribute("aria-label", t("play.drop", { piece }));
    button.dataset.piece = piece;
    button.addEventListener("click", () => play.board?.startDrop(moves));
    return button;
  });
}

/** The pieces in `side`'s hand, from the FEEN's hands field (`k^2p/r`: the first player's
 * before the `/`), as their letters with counts: `K P×2`; empty when it holds none. */
function handText(feen: string, side: Side): string {
  const hands = (feen.split(" ")[1] ?? "/").split("/");
  const part = hands[side === "first" ? 0 : 1] ?? "";
  return [...part.matchAll(/(\d*)[-+]?([A-Za-z])['^]?/g)]
    .map((m) => {
      const count = m[1] ? Number(m[1]) : 1;
      return count > 1 ? `${m[2].toUpperCase()}×${count}` : m[2].toUpperCase();
    })
    .join(" ");
}

function renderPlayers(): void {
  const state = play.state;
  if (!state) return;
  const [lower, upper]: Side[] = play.flipped ? ["second", "first"] : ["first", "second"];
  fill($("#player-bottom"), playerLine(state, lower));
  fill($("#player-top"), playerLine(state, upper));
}

function moveText(m: MoveView): string {
  return notationText(m.text, m.coords, play.notation);
}

function renderMoves(): void {
  const state = play.state!;
  const body = $("#moves tbody");
  body.textContent = "";
  const firstMover: Side = state.moves.length % 2 === 0 ? state.turn : other(state.turn);
  let row: HTMLTableRowElement | null = null;
  state.moves.forEach((m, i) => {
    const side = i % 2 === 0 ? firstMover : other(firstMover);
    if (!row || side === "first") {
      row = (body as HTMLTableSectionElement).insertRow();
      row.insertCell().textContent = String(Math.floor(i / 2) + 1);
      row.insertCell();
      row.insertCell();
    }
    const cell = row.cells[side === "first" ? 1 : 2];
    const button = h("button", { className: "move" + (m.ply === shownPly() ? " current" : ""), "data-ply": m.ply }, moveText(m));
    button.addEventListener("click", () => goTo(m.ply));
    cell.append(button);
  });
  $("#ply-label").textContent = t("play.ply", { shown: shownPly(), total: state.ply });
}

async function drawBoard(): Promise<void> {
  const state = play.state;
  if (!state) return;
  const ply = play.viewPly === null ? "" : `&ply=${play.viewPly}`;
  const url = `/api/games/${play.id}/board.svg?targets=true&glyphs=${play.glyphs}&flip=${play.flipped}${ply}&v=${state.version}`;
  const request = ++play.boardRequest;
  const board = $("#board");
  // Busy until the picture of the latest state is in (assistive tools, and tests, wait).
  board.setAttribute("aria-busy", "true");
  let text: string;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (e) {
    if (request === play.boardRequest) showError(t("error.board", { why: (e as Error).message }));
    return;
  }
  if (request !== play.boardRequest) return;
  // The server's own drawing (no player-written text in it).
  play.board!.setPicture(text);
  board.dataset.ply = String(shownPly());
  board.setAttribute("aria-busy", "false");
}

function canMove(): boolean {
  const s = play.state;
  return !!s && s.can.move && play.viewPly === null;
}

/** The board's moves: the legal ones on the player's turn; premoves while the other side is
 * to move (or the engine thinks). */
function boardMoves(): void {
  const s = play.state!;
  const board = play.board!;
  board.setMoves(canMove() ? s.legal : []);
  const waiting = !!s.you && !s.result && s.opponent !== "record" && !s.can.move && play.viewPly === null;
  board.setPremoveSide(waiting ? s.you : null);
}

/** A premove made while the other side was to move is played when the turn comes, if it is
 * legal then; otherwise it is dropped. */
function playPremove(): void {
  const board = play.board!;
  const premove = board.premove;
  if (!premove || !canMove()) return;
  board.setPremove(null);
  const moves = play.state!.legal.filter((m) => m.from === premove.from && m.to === premove.to);
  // A promotion premoved takes the first choice (the piece as it is).
  if (moves.length) sendMove(moves[0].uci);
}

function choosePromotion(moves: Legal[]): void {
  const box = $("#promotion-choices");
  box.textContent = "";
  const game = play.state!.game;
  // A game read from rule files may promote into several pieces: each by its letter and name.
  const rules = isRules(game);
  $("#promotion p").textContent = t(rules ? "play.promote_to" : "play.promote");
  for (const m of moves) {
    const button = h("button", {}, (rules && promotionLabel(game, m.uci)) || m.pmn);
    button.addEventListener("click", () => {
      $<HTMLDialogElement>("#promotion").close("chosen");
      sendMove(m.uci);
    });
    box.append(button);
  }
  $<HTMLDialogElement>("#promotion").showModal();
}

/** ←/→ step through the moves, Home and End go to the start and to now (not while typing,
 * nor while the board's keyboard cursor has the arrows). */
function onPageKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
  if (play.board?.keyboardCursor || event.altKey || event.ctrlKey || event.metaKey) return;
  const step: Record<string, () => void> = {
    ArrowLeft: () => goTo(shownPly() - 1),
    ArrowRight: () => goTo(shownPly() + 1),
    Home: () => goTo(0),
    End: () => goTo(null),
  };
  const go = step[event.key];
  if (go && play.state) {
    event.preventDefault();
    go();
  }
}

function formatClock(ms: number): string {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const tenths = s < 20 ? "." + Math.floor((ms % 1000) / 100) : "";
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}${tenths}`;
}

function tickClocks(): void {
  const state = play.state;
  const top = $("#clock-top"),
    bottom = $("#clock-bottom");
  if (!state || !state.clock) {
    top.hidden = bottom.hidden = true;
    return;
  }
  top.hidden = bottom.hidden = false;
  const clock = state.clock;
  const elapsed = performance.now() - play.clockBase;
  const left = clock.remaining_ms.slice();
  if (clock.running) left[clock.running === "first" ? 0 : 1] -= elapsed;
  const [lower, upper] = play.flipped ? [1, 0] : [0, 1];
  // Before each side's first move no clock runs: the side to move sees the time it has left
  // to make that move before the game is aborted.
  const label = (i: number) => {
    const side: Side = i === 0 ? "first" : "second";
    const text = `${sideName(state.game, side)} ${formatClock(left[i])}`;
    if (clock.first_move_ms === null || clock.first_move_ms === undefined || state.result || state.turn !== side) return text;
    return `${text} · ${t("play.first_move_within", { time: formatClock(clock.first_move_ms - elapsed) })}`;
  };
  bottom.textContent = label(lower);
  top.textContent = label(upper);
  bottom.classList.toggle("running", clock.running === (lower === 0 ? "first" : "second"));
  top.classList.toggle("running", clock.running === (upper === 0 ? "first" : "second"));
}
