// chuhe serve in real Chromium (Debian's, driven by playwright-core): every test starts its own
// server on a fresh SQLite file and a free port, plays by clicking (or by keys, or by touch),
// reads the board and the move list, and fails on any error the page logs. Screenshots go to
// artifacts/ beside this file.
//
// Run with scripts/browser-test (it installs Chromium, the npm package and builds chuhe), or
// here: `npm ci && node --test`. Environment: CHUHE_BIN (the chuhe binary, default
// target/debug/chuhe of the repository), CHROMIUM (default /usr/bin/chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  boardDrawn,
  choose,
  clickMove,
  destinations,
  createGame,
  glyphOn,
  lastMoveMarked,
  movesShown,
  myMove,
  session,
  shot,
  square,
  state,
} from "./harness.mjs";

// Positions. Red mates in one: the chariot b1 to b10 (the other holds rank 9).
const XIANGQI_MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
// Xiongqi: South's chariot on a1 takes North's general on a8.
const XIONGQI_GENERAL_EN_PRISE = "g^7/8/8/8/8/8/8/R3G^3 / X/x";
// Xiongqi: South's soldier on e7 reaches the far rank, with seven choices (X2).
const XIONGQI_PROMOTION = "g^7/4+S3/8/8/8/8/8/4G^3 / X/x";

// ------------------------------------------------------------------ the tests

test("Xiangqi against the engine: the form, clicks, move list, board, clock, reload, take-back", async (t) => {
  const s = await session(t);
  const page = await s.page("player");
  await page.goto(s.url + "/");
  await page.check("input[name=game][value=xiangqi]");
  await page.check("input[name=opponent][value=engine]");
  await page.locator("#level").fill("0");
  assert.equal(await page.textContent("#level-out"), "0");
  await page.selectOption("#clock", "600+5");
  await shot(page, "a-1-new-game");
  await page.click("#start");
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await myMove(page);
  assert.match(await page.textContent("#status"), /Your move \(Red\)/);
  const created = await state(page);
  assert.equal(created.engine.level, 0);
  assert.equal(created.you, "first");

  // Before Red's first move no clock runs: the time left for that move counts down.
  await page.waitForFunction(() =>
    /^Red 10:00 · first move within \d+:\d\d/.test(document.querySelector("#clock-bottom").textContent),
  );
  assert.doesNotMatch(await page.getAttribute("#clock-bottom", "class"), /running/);
  const firstMoveThen = await page.textContent("#clock-bottom");
  await page.waitForTimeout(1200);
  const firstMoveNow = await page.textContent("#clock-bottom");
  assert.notEqual(firstMoveNow, firstMoveThen, "the first move's time counts down");
  assert.match(firstMoveNow, /^Red 10:00 · /, "Red's clock has not started");
  assert.match(await page.textContent("#clock-top"), /^Black 10:00$/);

  // 炮二平五 by clicking.
  assert.equal(await glyphOn(page, "h3"), "炮");
  await clickMove(page, "h3", "e3");
  let moves = await movesShown(page, 1, { atLeast: true });
  assert.equal(moves[0], "h3-e3 (C2=5)");
  moves = await movesShown(page, 2); // the engine's answer
  await myMove(page);
  // Each side has made its first move: the clock of the side to move runs.
  await page.waitForFunction(() => /^Red \d+:\d\d$/.test(document.querySelector("#clock-bottom").textContent));
  assert.match(await page.getAttribute("#clock-bottom", "class"), /running/);
  const clockThen = await page.textContent("#clock-bottom");
  await page.waitForTimeout(1200);
  assert.notEqual(await page.textContent("#clock-bottom"), clockThen, "the running clock ticks");
  const answered = await state(page);
  assert.equal(answered.moves[0].text.pmn, "h3-e3");
  assert.equal(answered.moves[0].text.wxf, "C2=5");
  assert.equal(moves[1], `${answered.moves[1].text.pmn} (${answered.moves[1].text.wxf})`);
  assert.equal(await glyphOn(page, "e3"), "炮");
  assert.equal(await glyphOn(page, "h3"), null);
  const [, from, to] = answered.moves[1].text.uci.match(/^([a-i]\d+)([a-i]\d+)$/);
  await lastMoveMarked(page, from, to);
  assert.equal(await page.inputValue("#feen"), answered.feen);
  assert.equal(await page.inputValue("#fen"), answered.fen);
  await shot(page, "a-2-engine-answered");

  // Reload: the game goes on.
  await page.reload();
  moves = await movesShown(page, 2);
  assert.equal(moves[0], "h3-e3 (C2=5)");
  await myMove(page);
  const next = await choose(page, "b1c3", "h1g3");
  await clickMove(page, next.from, next.to);
  moves = await movesShown(page, 3, { atLeast: true });
  assert.equal(moves[2].split(" ")[0], next.pmn);
  await movesShown(page, 4);
  await myMove(page);
  assert.equal(await page.locator("#board rect.last-move").count(), 2);
  await shot(page, "a-3-after-reload");
  // The picture for the README (docs/images/serve.png): a Xiangqi game in progress, with no
  // hover or focus mark left by the test.
  await page.mouse.move(990, 790);
  await page.evaluate(() => document.activeElement.blur());
  await shot(page, "serve");

  // Latin letters and a flipped board, kept by the page (the letters across reloads).
  await page.click("#glyphs");
  await page.waitForFunction(() => document.querySelector("#glyphs").textContent === "Chinese characters");
  await page.waitForFunction(() => /^[A-Za-z]+$/.test(document.querySelector("#board g.piece text")?.textContent));
  assert.equal(await glyphOn(page, "e1"), "K");
  const y = (name) => square(page, name).getAttribute("y").then(Number);
  assert.ok((await y("e1")) > (await y("e10")), "Red at the bottom");
  await page.click("#flip");
  await page.waitForFunction(() => {
    const y = (n) => Number(document.querySelector(`#board rect.square[data-square="${n}"]`)?.getAttribute("y"));
    return y("e1") < y("e10");
  });
  assert.equal(await glyphOn(page, "e1"), "K");
  await shot(page, "a-4-flipped-latin");
  await page.click("#flip");
  await page.click("#glyphs");
  await page.waitForFunction(() => document.querySelector("#glyphs").textContent === "Latin letters");

  // Take back: the last own move and the engine's answer.
  await page.click("#takeback");
  await movesShown(page, 2);
  await myMove(page);
  assert.equal((await state(page)).ply, 2);
  await shot(page, "a-5-taken-back");

  // A move typed in WXF.
  await page.fill("#move-input", "C8=6");
  await page.press("#move-input", "Enter");
  moves = await movesShown(page, 3, { atLeast: true });
  assert.equal(moves[2], "b3-d3 (C8=6)");
  await s.finish();
});

test("two browsers through the invite link, a spectator, draw offers", async (t) => {
  const s = await session(t);
  const a = await s.page("A");
  await a.goto(s.url + "/");
  await a.check("input[name=game][value=xiongqi]");
  await a.check("input[name=opponent][value=friend]");
  assert.equal(await a.locator("#level").isVisible(), false, "no engine level for a friend game");
  await a.click("#start");
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = a.url().split("/").pop();
  await myMove(a);
  await a.locator("#invite-link").waitFor();
  const invite = await a.inputValue("#invite-link");
  assert.match(invite, new RegExp(`^${s.url}/g/${id}\\?invite=[0-9a-f]+$`));
  const watch = await a.getAttribute("#watch-link", "href");
  assert.equal(watch, `/g/${id}`);
  await shot(a, "b-1-creator-invite");

  // The creator opening their own invite link in another tab keeps their seat.
  const a2 = await s.pageBeside(a, "A, second tab");
  await a2.goto(invite);
  await a2.waitForURL(`${s.url}/g/${id}`);
  await myMove(a2);
  assert.equal((await state(a2)).you, "first");
  assert.equal((await state(a)).you, "first");
  await a2.close();

  const b = await s.page("B");
  await b.goto(invite);
  await b.waitForURL(`${s.url}/g/${id}`); // the page joined and dropped the code
  await movesShown(b, 0);
  await b.waitForFunction(() => document.querySelector("#status").textContent === "South to move");
  assert.equal((await state(b)).you, "second");
  // The players' names are shown, each a guest.
  await b.waitForFunction(() => /^Guest-/.test(document.querySelector("#player-top").textContent.trim()));
  // A third browser opening the same invite watches: the seat is taken.
  const late = await s.page("late");
  late.allowed.push(/status of 409/);
  await late.goto(invite);
  await late.waitForURL(`${s.url}/g/${id}`);
  await late.waitForFunction(() => /Someone else took the seat/.test(document.querySelector("#notice").textContent));
  assert.equal((await state(late)).you, null);
  await shot(late, "b-1b-late-spectator");
  await late.context().close();
  assert.equal(await b.locator("#invite").isVisible(), false, "the invite is for the creator only");
  assert.equal(await b.locator("#board rect.square.movable").count(), 0);
  await b.evaluate(() => (window.stillHere = true)); // to tell a reload from a live update

  // A moves; B sees it without reloading; B answers; A sees it.
  await clickMove(a, "e3", "e4");
  assert.deepEqual(await movesShown(a, 1), ["e3-e4"]);
  assert.deepEqual(await movesShown(b, 1), ["e3-e4"]);
  await lastMoveMarked(b, "e3", "e4");
  await clickMove(b, "d6", "d5");
  assert.deepEqual(await movesShown(b, 2), ["e3-e4", "d6-d5"]);
  assert.deepEqual(await movesShown(a, 2), ["e3-e4", "d6-d5"]);
  await lastMoveMarked(a, "d6", "d5");
  assert.equal(await b.evaluate(() => window.stillHere), true, "B's page was not reloaded");
  await myMove(a);
  await shot(a, "b-2-A-after-answer");
  await shot(b, "b-3-B-after-answer");

  // A spectator: the plain link, no token.
  const c = await s.page("spectator");
  await c.goto(s.url + watch);
  await movesShown(c, 2);
  await c.waitForFunction(() => /you are watching/.test(document.querySelector("#status").textContent));
  assert.equal(await c.locator("#board rect.square.movable").count(), 0);
  for (const hidden of ["#type-move", "#resign", "#draw-offer", "#takeback", "#invite"]) {
    assert.equal(await c.locator(hidden).isVisible(), false, `${hidden} is hidden for a spectator`);
  }
  await square(c, "e4").click();
  await square(c, "e5").click();
  assert.equal(await c.locator("#board rect.square.selected").count(), 0);
  const refused = await c.context().request.post(`${s.url}/api/games/${id}/move`, { data: { move: "e4e5" }, failOnStatusCode: false });
  assert.equal(refused.status(), 403);
  assert.equal((await refused.json()).error.code, "forbidden");
  assert.equal((await state(c)).ply, 2);
  await shot(c, "b-4-spectator");

  // A offers a draw; B declines; A moves on, then offers again and B accepts.
  await a.click("#draw-offer");
  await b.locator("#draw-accept").waitFor();
  assert.match(await b.textContent("#status"), /South offers a draw/);
  await shot(b, "b-5-B-draw-offered");
  await b.click("#draw-decline");
  await a.waitForFunction(() => /declined the draw/.test(document.querySelector("#notice").textContent));
  // B's own page hides the offer once its refusal is answered, which may come after A hears of it.
  await b.locator("#draw-accept").waitFor({ state: "hidden", timeout: 5000 });
  await clickMove(a, "f3", "f4");
  await movesShown(b, 3);
  await clickMove(b, "c6", "c5");
  await movesShown(a, 4);
  await myMove(a);
  await a.click("#draw-offer");
  await b.locator("#draw-accept").waitFor();
  await b.click("#draw-accept");
  for (const p of [a, b, c]) {
    await p.locator("#banner").waitFor();
    const banner = await p.textContent("#banner");
    assert.equal(banner, "Game over: Draw by agreement");
    assert.doesNotMatch(banner, /CGSN/);
    await p.waitForFunction(() => !document.querySelector("#board rect.square.movable"));
  }
  await shot(a, "b-6-A-drawn");
  await shot(c, "b-7-spectator-drawn");
  await s.finish();
});

test("games against the engine to their end: checkmate, the general taken, archive, PCN", async (t) => {
  const s = await session(t);
  const page = await s.page("player");

  // Xiangqi: Red mates in one, by clicking.
  const id = await createGame(page, s.url, { game: "xiangqi", opponent: "engine", level: 0, position: XIANGQI_MATE_IN_ONE });
  await clickMove(page, "b1", "b10");
  await page.locator("#banner").waitFor();
  await boardDrawn(page);
  assert.equal(await page.textContent("#banner"), "Game over: Red wins by checkmate");
  assert.equal(await page.textContent("#status"), "Red wins by checkmate");
  assert.equal(await page.locator("#board circle.check").count(), 1, "the mated general is marked");
  assert.equal(await page.locator("#board rect.square.movable").count(), 0);
  // The result is final: nothing but a rematch is offered.
  for (const gone of ["#resign", "#abort", "#draw-offer", "#takeback", "#type-move"]) {
    assert.equal(await page.locator(gone).isVisible(), false, `${gone} after the result`);
  }
  assert.equal(await page.locator("#rematch").isVisible(), true);
  assert.deepEqual(await movesShown(page, 1), ["b1-b10 (R8+9)"]);
  await shot(page, "c-1-checkmate");

  // Its record, exported and imported again.
  const pcnHref = await page.getAttribute("#pcn-link", "href");
  const pcn = await (await page.context().request.get(s.url + pcnHref)).text();
  assert.match(JSON.parse(pcn).moves[0][0], /b1-b10/);
  // And as PGN, the way pychess.org writes it (Xiangqi only).
  assert.equal(await page.locator("#pgn-link").isVisible(), true);
  const pgn = await (await page.context().request.get(s.url + (await page.getAttribute("#pgn-link", "href")))).text();
  assert.match(pgn, /\[Variant "Xiangqi"\]/);
  assert.match(pgn, /\[Result "1-0"\]/);
  assert.match(pgn, /Rb10# 1-0/);
  await page.goto(s.url + "/");
  await page.fill("#import-pcn", pcn);
  await page.click("#import button[type=submit]");
  await page.waitForURL((u) => /\/g\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(id));
  assert.deepEqual(await movesShown(page, 1), ["b1-b10 (R8+9)"]);
  await page.locator("#banner").waitFor();
  assert.match(await page.textContent("#banner"), /checkmate/);
  // An imported record is a board to replay, and the page says what it read.
  assert.equal(await page.textContent("#notice"), "Imported record: replay it with the arrows. Read as PCN.");
  assert.equal(await page.locator("#rematch").isVisible(), false);

  // Xiongqi from a FEEN typed into the form: South's chariot takes North's general.
  await page.goto(s.url + "/");
  await page.check("input[name=game][value=xiongqi]");
  await page.check("input[name=opponent][value=engine]");
  await page.locator("#level").fill("0");
  await page.click("#home details summary");
  // A bad position first: the form says why.
  page.allowed.push(/status of 400/);
  await page.fill("#position", "g^7/8/8 / X/x");
  await page.click("#start");
  await page.waitForFunction(() => document.querySelector("#new-error").textContent.length > 0);
  assert.match(await page.textContent("#new-error"), /position/i);
  page.allowed.pop();
  await page.fill("#position", XIONGQI_GENERAL_EN_PRISE);
  await page.click("#start");
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await clickMove(page, "a1", "a8");
  await page.locator("#banner").waitFor();
  const banner = await page.textContent("#banner");
  assert.equal(banner, "Game over: South wins: North's general was captured");
  assert.deepEqual(await movesShown(page, 1), ["a1xa8"]);
  await shot(page, "c-2-general-captured");

  // The archive lists the games; one opens and replays.
  await page.goto(s.url + "/archive");
  await page.locator("#games li.game-card").nth(2).waitFor();
  const rows = await page.locator("#games li.game-card").allTextContents();
  assert.equal(rows.length, 3);
  assert.ok(rows.some((r) => /Red wins by checkmate/.test(r) && /chuhe level 0/.test(r)), rows.join(" | "));
  assert.ok(rows.some((r) => /South wins: North's general was captured/.test(r)), rows.join(" | "));
  assert.ok(rows.some((r) => /Imported/.test(r)), rows.join(" | "));
  await shot(page, "c-3-archive");
  await page.click(`#games a[href="/g/${id}"]`);
  await page.waitForURL(`${s.url}/g/${id}`);
  await movesShown(page, 1);
  await page.waitForFunction(() => document.querySelector("#ply-label").textContent === "1 / 1");
  await page.click("#first-ply");
  await page.waitForFunction(() => document.querySelector("#board").dataset.ply === "0");
  assert.equal(await page.textContent("#ply-label"), "0 / 1");
  assert.equal(await page.locator("#board rect.last-move").count(), 0);
  assert.equal(await glyphOn(page, "b1"), "俥");
  await shot(page, "c-4-replay-start");
  await page.click("#next-ply");
  await page.waitForFunction(() => document.querySelector("#board").dataset.ply === "1");
  assert.equal(await glyphOn(page, "b10"), "俥");
  await lastMoveMarked(page, "b1", "b10");
  await s.finish();
});

test("the promotion chooser (Xiongqi): a soldier reaching the far rank", async (t) => {
  const s = await session(t);
  const page = await s.page("player");
  await createGame(page, s.url, { game: "xiongqi", opponent: "engine", level: 0, position: XIONGQI_PROMOTION });
  await clickMove(page, "e7", "e8");
  const dialog = page.locator("#promotion");
  await dialog.waitFor();
  const choices = await page.locator("#promotion-choices button").allTextContents();
  assert.deepEqual(choices.sort(), ["e7-e8", "e7-e8=A", "e7-e8=B", "e7-e8=C", "e7-e8=E", "e7-e8=H", "e7-e8=R"]);
  await shot(page, "f-1-promotion-chooser");
  // Cancel keeps the position; the second try promotes to a chariot.
  await page.click("#promotion-cancel");
  await dialog.waitFor({ state: "hidden" });
  assert.equal((await state(page)).ply, 0);
  await clickMove(page, "e7", "e8");
  await dialog.waitFor();
  await page.click("#promotion-choices button:text-is('e7-e8=R')");
  const moves = await movesShown(page, 1, { atLeast: true });
  assert.equal(moves[0], "e7-e8=R");
  await movesShown(page, 2);
  await shot(page, "f-2-promoted");
  await s.finish();
});

test("playing Black: the engine opens the game; a clock that runs out ends it; a game without a first move is aborted", async (t) => {
  const s = await session(t, ["--abort-after", "4"]);
  const page = await s.page("player");
  await page.goto(s.url + "/");
  await page.check("input[name=game][value=xiangqi]");
  await page.check("input[name=opponent][value=engine]");
  await page.locator("#level").fill("0");
  await page.check("input[name=side][value=second]");
  await page.click("#start");
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const opening = await movesShown(page, 1, { atLeast: true }); // the engine's, unasked
  await myMove(page);
  assert.match(await page.textContent("#status"), /Your move \(Black\)/);
  const y = (name) => square(page, name).getAttribute("y").then(Number);
  assert.ok((await y("e10")) > (await y("e1")), "Black at the bottom");
  const reply = await choose(page, "h10g8", "b10c8", "a10a9");
  await clickMove(page, reply.from, reply.to);
  const moves = await movesShown(page, 2, { atLeast: true });
  assert.equal(moves[0], opening[0]);
  assert.equal(moves[1].split(" ")[0], reply.pmn);
  await movesShown(page, 3);
  await myMove(page);
  await shot(page, "g-1-black");

  // One second on the clock: each side makes its first move (off the clock), then First,
  // to move, runs out of time.
  await createGame(page, s.url, { game: "xiongqi", opponent: "friend", clock: { initial_s: 1, increment_s: 0 } });
  await clickMove(page, "e3", "e4");
  await movesShown(page, 1);
  const friendMoved = await page.evaluate(async () => {
    const id = location.pathname.split("/").pop();
    const s = await (await fetch(`/api/games/${id}`)).json();
    const invite = new URL(s.invite, location.href).searchParams.get("invite");
    // The friend joins from elsewhere (no cookie): the answer carries their seat's token.
    const joined = await (
      await fetch(`/api/games/${id}/join`, {
        method: "POST",
        credentials: "omit",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ invite }),
      })
    ).json();
    const token = joined.token;
    const r = await fetch(`/api/games/${id}/move`, {
      credentials: "omit",
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ move: "e6e5" }),
    });
    return r.status;
  });
  assert.equal(friendMoved, 200);
  await page.locator("#banner").waitFor({ timeout: 10_000 });
  const banner = await page.textContent("#banner");
  assert.equal(banner, "Game over: North wins on time");
  await page.waitForFunction(() => /^South 0:00/.test(document.querySelector("#clock-bottom").textContent));
  await shot(page, "g-2-time-out");

  // A game with clocks where nobody makes a first move is aborted (--abort-after 4), and the
  // archive says so.
  const aborted = await createGame(page, s.url, { game: "xiongqi", opponent: "friend", clock: { initial_s: 60, increment_s: 0 } });
  await page.locator("#banner").waitFor({ timeout: 10_000 });
  const abortedBanner = await page.textContent("#banner");
  assert.equal(abortedBanner, "Game over: Game aborted: South did not make a first move in time");
  assert.match(await page.textContent("#clock-bottom"), /^South 1:00$/);
  await shot(page, "g-3-aborted");
  await page.goto(s.url + "/archive");
  const row = page.locator("li.game-card", { has: page.locator(`a[href="/g/${aborted}"]`) });
  await row.waitFor();
  assert.match(await row.textContent(), /Game aborted/);
  await s.finish();
});

/** Moves the keyboard cursor to `target` with the arrow keys (the board not flipped). */
async function cursorTo(page, target) {
  const parse = (sq) => [sq.charCodeAt(0), Number(sq.slice(1))];
  for (let i = 0; i < 40; i++) {
    const at = await page.evaluate(() => document.querySelector("#board rect.square.cursor")?.dataset.square ?? null);
    if (at === target) return;
    let key = "Enter"; // the first press enters the board: a cursor on a movable piece
    if (at) {
      const [[fa, ra], [ft, rt]] = [parse(at), parse(target)];
      key = fa < ft ? "ArrowRight" : fa > ft ? "ArrowLeft" : ra < rt ? "ArrowUp" : "ArrowDown";
    }
    await page.keyboard.press(key);
  }
  throw new Error(`the cursor did not reach ${target}`);
}

test("keyboard: arrows and Enter play a move; resigning", async (t) => {
  const s = await session(t);
  const page = await s.page("player");
  await createGame(page, s.url, { game: "xiangqi", opponent: "engine", level: 0 });
  await myMove(page);
  // The engine declines a draw (it takes one only when it judges itself clearly worse).
  await page.click("#draw-offer");
  await page.waitForFunction(() => document.querySelector("#notice").textContent === "Black declined the draw");
  assert.equal(await page.locator("#banner").isVisible(), false);
  await page.focus("#board");
  await cursorTo(page, "b1");
  await page.keyboard.press("Enter");
  await page.locator('#board rect.square.selected[data-square="b1"]').waitFor();
  assert.deepEqual(await destinations(page), ["a3", "c3"]);
  // Escape lets go; Enter again picks it up.
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#board rect.square.selected").count(), 0);
  await page.keyboard.press("Enter");
  await page.locator('#board rect.square.selected[data-square="b1"]').waitFor();
  await cursorTo(page, "c3");
  await shot(page, "d-1-keyboard-cursor");
  await page.keyboard.press("Enter");
  assert.deepEqual((await movesShown(page, 1, { atLeast: true }))[0], "b1-c3 (H8+7)");
  await movesShown(page, 2);
  await myMove(page);
  // The focus stays on the board: the next move by keys too.
  assert.equal(await page.evaluate(() => document.activeElement.id), "board");
  const second = await choose(page, "h1g3", "a1a2", "i1i2");
  await cursorTo(page, second.from);
  await page.keyboard.press(" ");
  await page.locator(`#board rect.square.selected[data-square="${second.from}"]`).waitFor();
  await cursorTo(page, second.to);
  await page.keyboard.press("Enter");
  assert.equal((await movesShown(page, 3, { atLeast: true }))[2].split(" ")[0], second.pmn);
  await movesShown(page, 4);
  await myMove(page);

  // Resign (the page asks first; the test says yes).
  await page.click("#resign");
  await page.locator("#banner").waitFor();
  const banner = await page.textContent("#banner");
  assert.equal(banner, "Game over: Black wins by resignation");
  // The result is final: no take-back is offered, and one sent anyway is refused.
  assert.equal(await page.locator("#takeback").isVisible(), false);
  page.allowed.push(/status of 409/);
  const refused = await page.evaluate(async () => {
    const id = location.pathname.split("/").pop();
    const r = await fetch(`/api/games/${id}/takeback`, { method: "POST" });
    return [r.status, (await r.json()).error.code];
  });
  assert.deepEqual(refused, [409, "game_over"]);
  assert.equal((await state(page)).result.status, "resignation");
  await shot(page, "d-2-resigned");
  await s.finish();
});

test("a phone-sized screen: the board fits, taps and a touch drag play", async (t) => {
  const s = await session(t);
  const page = await s.page("phone", {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  await createGame(page, s.url, { game: "xiangqi", opponent: "engine", level: 0, clock: { initial_s: 300, increment_s: 3 } });
  await myMove(page);
  const fit = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    board: document.querySelector("#board svg").getBoundingClientRect().toJSON(),
  }));
  assert.equal(fit.inner, 390);
  assert.ok(fit.scroll <= fit.inner, `no horizontal scroll (page ${fit.scroll} px wide)`);
  assert.ok(fit.board.left >= 0 && fit.board.right <= 390, `the board fits: ${JSON.stringify(fit.board)}`);
  assert.ok(fit.board.width >= 330, `the board uses the width: ${fit.board.width} px`);
  await shot(page, "e-1-phone");

  // Two taps.
  await square(page, "h3").tap();
  await page.locator('#board rect.square.selected[data-square="h3"]').waitFor();
  await square(page, "e3").tap();
  assert.equal((await movesShown(page, 1, { atLeast: true }))[0], "h3-e3 (C2=5)");
  await movesShown(page, 2);
  await myMove(page);

  // A touch drag (no click follows it), then taps again.
  const centre = async (name) => {
    const b = await square(page, name).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const dragged = await choose(page, "b1c3", "h1g3", "a1a2");
  const [from, to] = [await centre(dragged.from), await centre(dragged.to)];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [from] });
  for (let i = 1; i <= 4; i++) {
    const p = { x: from.x + ((to.x - from.x) * i) / 4, y: from.y + ((to.y - from.y) * i) / 4 };
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [p] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  assert.equal((await movesShown(page, 3, { atLeast: true }))[2].split(" ")[0], dragged.pmn);
  await movesShown(page, 4);
  await myMove(page);
  const tapped = await choose(page, "h1g3", "i1i2", "a1a2");
  await square(page, tapped.from).tap();
  await page.locator(`#board rect.square.selected[data-square="${tapped.from}"]`).waitFor();
  await square(page, tapped.to).tap();
  assert.equal((await movesShown(page, 5, { atLeast: true }))[4].split(" ")[0], tapped.pmn);
  await movesShown(page, 6);
  await myMove(page);
  const widthAfter = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(widthAfter <= 390, `no horizontal scroll after six moves (page ${widthAfter} px wide)`);
  await shot(page, "e-2-phone-after-moves");
  await s.finish();
});
