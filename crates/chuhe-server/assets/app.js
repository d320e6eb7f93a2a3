// chuhe's page: the new-game form, a game (board, moves, clocks, actions) and the archive.
// The board is the SVG the server draws (chuhe's own SvgBoard) with a transparent target on
// every square; this script only marks squares and sends moves.
"use strict";

const $ = (sel) => document.querySelector(sel);
const NAMES = { xiangqi: "Xiangqi", xiongqi: "Xiongqi", "xiangqi-capture": "Xiangqi (capture rules)" };

async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = data.error || { code: "http", message: `HTTP ${response.status}` };
    throw Object.assign(new Error(e.message), { code: e.code });
  }
  return data;
}

function show(section) {
  for (const id of ["home", "play", "archive"]) $("#" + id).hidden = id !== section;
}

// ---------------------------------------------------------------- new game
function setupHome() {
  show("home");
  const level = $("#level");
  level.addEventListener("input", () => ($("#level-out").textContent = level.value));
  const syncOpponent = () => {
    const engine = $("input[name=opponent]:checked").value === "engine";
    document.querySelectorAll(".engine-only").forEach((e) => (e.hidden = !engine));
  };
  document.querySelectorAll("input[name=opponent]").forEach((r) => r.addEventListener("change", syncOpponent));
  syncOpponent();
  $("#new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#new-error").textContent = "";
    const body = {
      game: $("input[name=game]:checked").value,
      opponent: $("input[name=opponent]:checked").value,
      side: $("input[name=side]:checked").value,
    };
    if (body.opponent === "engine") body.level = Number(level.value);
    const clock = $("#clock").value;
    if (clock) {
      const [initial, increment] = clock.split("+").map(Number);
      body.clock = { initial_s: initial, increment_s: increment };
    }
    const position = $("#position").value.trim();
    if (position) body.position = position;
    try {
      const created = await api("POST", "/api/games", body);
      location.assign("/g/" + created.game.id);
    } catch (e) {
      $("#new-error").textContent = e.message;
    }
  });
  $("#import").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#import-error").textContent = "";
    try {
      const created = await api("POST", "/api/import", { pcn: $("#import-pcn").value });
      location.assign("/g/" + created.game.id);
    } catch (e) {
      $("#import-error").textContent = e.message;
    }
  });
}

// ---------------------------------------------------------------- archive
async function setupArchive() {
  show("archive");
  let offset = 0;
  const more = async () => {
    const data = await api("GET", `/api/games?limit=50&offset=${offset}`);
    const body = $("#games tbody");
    for (const g of data.games) {
      const row = body.insertRow();
      const link = document.createElement("a");
      link.href = "/g/" + g.id;
      link.textContent = NAMES[g.game] || g.game;
      row.insertCell().append(link);
      row.insertCell().textContent = g.opponent;
      row.insertCell().textContent = g.plies;
      row.insertCell().textContent = !g.result ? "in play" : g.result.status === "aborted" ? "aborted" : `${g.result.status}, ${g.result.winner === "none" ? "draw" : g.result.winner + " wins"}`;
      row.insertCell().textContent = new Date(g.updated_ms).toLocaleString();
    }
    offset += data.games.length;
    $("#more-games").hidden = data.games.length < data.limit;
  };
  $("#more-games").addEventListener("click", more);
  await more();
}

// ---------------------------------------------------------------- a game
const play = {
  id: null,
  state: null,
  socket: null,
  viewPly: null, // null: the current position; a number: replaying an earlier one
  selected: null,
  cursor: null,
  flipped: null,
  glyphs: localStorage.getItem("chuhe.glyphs") || "chinese",
  clockBase: 0,
  boardRequest: 0,
};

function setupGame(id) {
  show("play");
  play.id = id;
  $("#board").addEventListener("click", onBoardClick);
  $("#board").addEventListener("pointerdown", onPointerDown);
  $("#board").addEventListener("pointerup", onPointerUp);
  $("#board").addEventListener("keydown", onBoardKey);
  $("#resign").addEventListener("click", () => confirm("Resign this game?") && send({ type: "resign" }));
  $("#draw-offer").addEventListener("click", () => send({ type: "draw", action: "offer" }));
  $("#draw-accept").addEventListener("click", () => send({ type: "draw", action: "accept" }));
  $("#draw-decline").addEventListener("click", () => send({ type: "draw", action: "decline" }));
  $("#takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("#flip").addEventListener("click", () => {
    play.flipped = !play.flipped;
    drawBoard();
  });
  $("#glyphs").addEventListener("click", () => {
    play.glyphs = play.glyphs === "chinese" ? "latin" : "chinese";
    localStorage.setItem("chuhe.glyphs", play.glyphs);
    glyphsLabel();
    drawBoard();
  });
  $("#first-ply").addEventListener("click", () => goTo(0));
  $("#prev-ply").addEventListener("click", () => goTo(shownPly() - 1));
  $("#next-ply").addEventListener("click", () => goTo(shownPly() + 1));
  $("#last-ply").addEventListener("click", () => goTo(null));
  $("#type-move").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#move-input").value.trim();
    if (text) sendMove(text);
  });
  $("#promotion-cancel").addEventListener("click", () => $("#promotion").close());
  // Closed without a choice (Cancel or Escape): the piece is let go.
  $("#promotion").addEventListener("close", () => {
    if ($("#promotion").returnValue !== "chosen") {
      play.selected = null;
      markSquares();
    }
    $("#promotion").returnValue = "";
  });
  $("#pcn-link").href = `/api/games/${id}/pcn`;
  $("#pgn-link").href = `/api/games/${id}/pgn`;
  connect();
  setInterval(tickClocks, 200);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/api/games/${play.id}/ws`);
  play.socket = socket;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") render(message.state);
    else if (message.type === "error") showError(message.error.message);
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

async function refresh() {
  try {
    render(await api("GET", `/api/games/${play.id}`));
  } catch (e) {
    showError(e.message);
  }
}

// Sends an action: over the socket when it is open, else over HTTP.
async function send(message) {
  showError("");
  if (play.socket && play.socket.readyState === WebSocket.OPEN) {
    play.socket.send(JSON.stringify(message));
    return;
  }
  const paths = { move: "move", resign: "resign", draw: "draw", takeback: "takeback" };
  const body = message.type === "move" ? { move: message.move, ply: message.ply } : message.type === "draw" ? { action: message.action } : undefined;
  try {
    render(await api("POST", `/api/games/${play.id}/${paths[message.type]}`, body));
  } catch (e) {
    showError(e.message);
  }
}

function sendMove(text) {
  play.selected = null;
  $("#move-input").value = "";
  send({ type: "move", move: text, ply: play.state.ply });
}

function showError(text) {
  $("#play-error").textContent = text;
}

function shownPly() {
  return play.viewPly === null ? play.state.ply : play.viewPly;
}

function goTo(ply) {
  if (!play.state) return;
  if (ply !== null) ply = Math.max(0, Math.min(ply, play.state.ply));
  play.viewPly = ply === play.state.ply ? null : ply;
  play.selected = null;
  drawBoard();
  renderMoves();
}

function render(state) {
  const first = play.state === null;
  play.state = state;
  if (play.flipped === null) play.flipped = state.you === "second";
  if (play.viewPly !== null && play.viewPly > state.ply) play.viewPly = null;
  play.clockBase = performance.now();
  if (play.selected && !movesFrom(play.selected).length) play.selected = null;
  document.title = `${NAMES[state.game] || state.game} — chuhe`;
  $("#first-head").textContent = state.game === "xiongqi" ? "First" : "Red";
  $("#second-head").textContent = state.game === "xiongqi" ? "Second" : "Black";
  $("#status").textContent = statusLine(state);
  $("#notice").textContent = state.notice || "";
  const banner = $("#banner");
  banner.hidden = !state.result;
  if (state.result) banner.textContent = state.result.status === "aborted" ? `Game over: ${state.result.text}.` : `Game over: ${state.result.text}. (CGSN status: ${state.result.status})`;
  const mine = state.you !== null && !state.result;
  const myTurn = mine && state.turn === state.you;
  $("#resign").disabled = !myTurn;
  $("#draw-offer").disabled = !myTurn || state.draw_offer === state.you;
  const offered = mine && state.draw_offer && state.draw_offer !== state.you;
  $("#draw-accept").hidden = !offered;
  $("#draw-decline").hidden = !offered;
  $("#takeback").hidden = !(state.opponent === "engine" && state.you !== null);
  $("#type-move").hidden = !myTurn;
  $("#resign").hidden = $("#draw-offer").hidden = state.you === null;
  $("#invite").hidden = !state.invite;
  if (state.invite) $("#invite-link").value = location.origin + state.invite;
  $("#watch-link").href = state.watch;
  $("#pgn-item").hidden = state.game !== "xiangqi"; // PGN is written for Xiangqi only
  $("#feen").value = state.feen;
  $("#fen-row").hidden = !state.fen;
  $("#fen").value = state.fen || "";
  glyphsLabel();
  renderMoves();
  markSquares(); // at once on the board shown, so that no stale mark outlives the turn
  drawBoard();
  tickClocks();
  if (first) $("#board").focus({ preventScroll: true });
}

// The glyphs button offers the other kind.
function glyphsLabel() {
  $("#glyphs").textContent = play.glyphs === "chinese" ? "Latin letters" : "Chinese characters";
}

function sideName(state, side) {
  const red = state.game !== "xiongqi";
  return side === "first" ? (red ? "Red" : "First") : red ? "Black" : "Second";
}

function statusLine(state) {
  if (state.result) return state.result.text;
  const who = sideName(state, state.turn);
  let line = state.you === state.turn ? `Your move (${who})` : state.you ? `${who} to move` : `${who} to move — you are watching`;
  if (state.check) line += " — check!";
  if (state.thinking) line += " — the engine is thinking…";
  if (state.draw_offer) line += ` — ${sideName(state, state.draw_offer)} offers a draw`;
  return line;
}

function renderMoves() {
  const state = play.state;
  const body = $("#moves tbody");
  body.textContent = "";
  const firstMover = state.moves.length % 2 === 0 ? state.turn : state.turn === "first" ? "second" : "first";
  let row = null;
  state.moves.forEach((m, i) => {
    const side = i % 2 === 0 ? firstMover : firstMover === "first" ? "second" : "first";
    if (!row || side === "first") {
      row = body.insertRow();
      row.insertCell().textContent = Math.floor(i / 2) + 1;
      row.insertCell();
      row.insertCell();
    }
    const cell = row.cells[side === "first" ? 1 : 2];
    const button = document.createElement("button");
    button.className = "move" + (m.ply === shownPly() ? " current" : "");
    button.textContent = m.text.pmn + (m.text.wxf ? ` (${m.text.wxf})` : "");
    button.dataset.ply = m.ply;
    button.addEventListener("click", () => goTo(m.ply));
    cell.append(button);
  });
  $("#ply-label").textContent = `${shownPly()} / ${state.ply}`;
}

async function drawBoard() {
  const state = play.state;
  if (!state) return;
  const ply = play.viewPly === null ? "" : `&ply=${play.viewPly}`;
  const url = `/api/games/${play.id}/board.svg?targets=true&glyphs=${play.glyphs}&flip=${play.flipped}${ply}&v=${state.version}`;
  const request = ++play.boardRequest;
  // Busy until the picture of the latest state is in (assistive tools, and tests, wait).
  $("#board").setAttribute("aria-busy", "true");
  let text;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (e) {
    if (request === play.boardRequest) showError(`the board could not be drawn (${e.message})`);
    return;
  }
  if (request !== play.boardRequest) return;
  $("#board").innerHTML = text;
  $("#board").dataset.ply = shownPly();
  $("#board").setAttribute("aria-busy", "false");
  markSquares();
}

function square(name) {
  return $(`#board [data-square="${name}"]`);
}

function canMove() {
  const s = play.state;
  return s && !s.result && s.you === s.turn && play.viewPly === null && !s.thinking;
}

function movesFrom(from) {
  return canMove() ? play.state.legal.filter((m) => m.from === from) : [];
}

function markSquares() {
  document.querySelectorAll("#board .square").forEach((r) => r.classList.remove("selected", "dest", "cursor", "movable"));
  if (canMove()) {
    for (const m of play.state.legal) square(m.from)?.classList.add("movable");
  }
  if (play.selected) {
    square(play.selected)?.classList.add("selected");
    for (const m of movesFrom(play.selected)) square(m.to)?.classList.add("dest");
  }
  if (play.cursor) square(play.cursor)?.classList.add("cursor");
}

function pick(name) {
  if (!name || !canMove()) return;
  if (play.selected && play.selected !== name) {
    const moves = movesFrom(play.selected).filter((m) => m.to === name);
    if (moves.length === 1) return sendMove(moves[0].uci);
    if (moves.length > 1) return choosePromotion(moves);
  }
  play.selected = movesFrom(name).length && play.selected !== name ? name : null;
  markSquares();
}

function choosePromotion(moves) {
  const box = $("#promotion-choices");
  box.textContent = "";
  for (const m of moves) {
    const button = document.createElement("button");
    button.textContent = m.pmn;
    button.addEventListener("click", () => {
      $("#promotion").close("chosen");
      sendMove(m.uci);
    });
    box.append(button);
  }
  $("#promotion").showModal();
}

function squareAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  return target && target.dataset ? target.dataset.square : undefined;
}

// A press and a release on one square pick it; on two squares they play the move between
// them (a drag). Both are done on the release, not on the click that may follow it: a tap
// whose finger moved a little, or one that stopped a scroll, makes no click. The click is
// then skipped; a click with no press before it (assistive tools) still picks.
let dragFrom = null;
function onPointerDown(event) {
  // A release that made no click must not leave its flag to the next one.
  play.suppressClick = false;
  dragFrom = event.button === 0 ? squareAt(event) || null : null;
}
function onPointerUp(event) {
  const from = dragFrom;
  dragFrom = null;
  const to = squareAt(event);
  if (!from || !to) return;
  play.suppressClick = true;
  if (to === from) return pick(to);
  if (movesFrom(from).some((m) => m.to === to)) {
    play.selected = from;
    pick(to);
  }
}
function onBoardClick(event) {
  if (play.suppressClick) {
    play.suppressClick = false;
    return;
  }
  const name = event.target.dataset && event.target.dataset.square;
  if (name) pick(name);
}

// Keyboard: arrows move a cursor over the squares (as seen on the screen), Enter or Space
// picks, Escape lets go.
function onBoardKey(event) {
  const squares = [...document.querySelectorAll("#board .square")];
  if (!squares.length) return;
  const box = (r) => ({ x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")) });
  const current = play.cursor ? square(play.cursor) : null;
  const here = current ? box(current) : null;
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
  if (step) {
    event.preventDefault();
    if (!here) {
      play.cursor = play.selected || (play.state.legal[0] && play.state.legal[0].from) || squares[0].dataset.square;
    } else {
      let best = null;
      for (const r of squares) {
        const b = box(r);
        const dx = b.x - here.x, dy = b.y - here.y;
        const along = step[0] ? dx * step[0] : dy * step[1];
        const across = step[0] ? Math.abs(dy) : Math.abs(dx);
        if (along > 0 && across < 1 && (!best || along < best.along)) best = { along, name: r.dataset.square };
      }
      if (best) play.cursor = best.name;
    }
    markSquares();
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    pick(play.cursor);
  } else if (event.key === "Escape") {
    play.selected = null;
    markSquares();
  }
}

function formatClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const tenths = s < 20 ? "." + Math.floor((ms % 1000) / 100) : "";
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}${tenths}`;
}

function tickClocks() {
  const state = play.state;
  const top = $("#clock-top"), bottom = $("#clock-bottom");
  if (!state || !state.clock) {
    top.hidden = bottom.hidden = true;
    return;
  }
  top.hidden = bottom.hidden = false;
  const elapsed = performance.now() - play.clockBase;
  const left = state.clock.remaining_ms.slice();
  if (state.clock.running) left[state.clock.running === "first" ? 0 : 1] -= elapsed;
  const [lower, upper] = play.flipped ? [1, 0] : [0, 1];
  // Before each side's first move no clock runs: the side to move sees the time it has left
  // to make that move before the game is aborted.
  const firstMove = state.clock.first_move_ms;
  const label = (i) => {
    const side = i === 0 ? "first" : "second";
    const text = `${sideName(state, side)} ${formatClock(left[i])}`;
    if (firstMove === null || firstMove === undefined || state.result || state.turn !== side) return text;
    return `${text} · first move within ${formatClock(firstMove - elapsed)}`;
  };
  bottom.textContent = label(lower);
  top.textContent = label(upper);
  bottom.classList.toggle("running", state.clock.running === (lower === 0 ? "first" : "second"));
  top.classList.toggle("running", state.clock.running === (upper === 0 ? "first" : "second"));
}

// ---------------------------------------------------------------- routing
const path = location.pathname;
const game = path.match(/^\/g\/([A-Za-z0-9]+)$/);
if (game) setupGame(game[1]);
else if (path === "/archive") setupArchive();
else setupHome();
