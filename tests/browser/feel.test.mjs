// The feel of a game site, in Chromium: a piece dragged under the pointer, legal-move dots
// and capture rings, a premove played when the turn comes, the sounds asked for (and the
// switch that silences them), ←/→/Home/End stepping through the moves, the turn in the tab
// title. Two browser contexts play a game between friends; screenshots at 1280×800 and
// 390×844.
//
// Run: scripts/browser-test (or, in tests/browser, `node --test feel.test.mjs`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { boardDrawn, destinations, movesShown, myMove, session, shot, square, state } from "./harness.mjs";

/** The centre of a square on the screen. */
async function centre(page, name) {
  const b = await square(page, name).boundingBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** The sound the page last asked for (written on `<body data-sound>`). */
const lastSound = (page) => page.evaluate(() => document.body.dataset.sound ?? null);

/**
 * A Xiangqi game between friends: Red (`a`, 1280×800) starts it from the form, Black (`b`, in a
 * browser context made with `blackOptions`) joins by the invite link; Red is to move.
 */
async function friendGame(t, blackOptions) {
  const s = await session(t);
  const a = await s.page("Red", { viewport: { width: 1280, height: 800 } });
  await a.goto(s.url + "/");
  await a.check("input[name=game][value=xiangqi]");
  await a.check("input[name=opponent][value=friend]");
  await a.click("#start");
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await a.locator("#invite-link").waitFor();
  const b = await s.page("Black", blackOptions);
  await b.goto(await a.inputValue("#invite-link"));
  await b.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await myMove(a);
  return { s, a, b };
}

test("drag, dots and rings, premove, sounds, stepping through the moves", async (t) => {
  const { s, a, b } = await friendGame(t, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  assert.match(await a.title(), /^Your move/, "the tab says whose turn it is");
  assert.doesNotMatch(await b.title(), /^Your move/);

  // Red drags the cannon h3 to e3: mid-way the piece is under the pointer.
  const [from, to] = [await centre(a, "h3"), await centre(a, "e3")];
  await a.mouse.move(from.x, from.y);
  await a.mouse.down();
  await a.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2 + 7, { steps: 6 });
  const ghost = await a.evaluate(() => {
    const g = document.querySelector("#board g.piece.dragging");
    return g && { square: g.dataset.square, box: g.getBoundingClientRect().toJSON() };
  });
  assert.ok(ghost, "a piece follows the pointer");
  assert.equal(ghost.square, "h3");
  const mid = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 + 7 };
  assert.ok(Math.abs(ghost.box.x + ghost.box.width / 2 - mid.x) < 4 && Math.abs(ghost.box.y + ghost.box.height / 2 - mid.y) < 4, `the dragged piece is under the pointer: ${JSON.stringify(ghost.box)} vs ${JSON.stringify(mid)}`);
  // Its destinations: dots on empty points, a ring round the piece it can take (h10's horse).
  const marks = await a.evaluate(() => ({
    dots: [...document.querySelectorAll("#board .move-dot")].map((c) => c.dataset.square).sort(),
    rings: [...document.querySelectorAll("#board .capture-ring")].map((c) => c.dataset.square),
  }));
  assert.deepEqual(marks.rings, ["h10"]);
  assert.ok(marks.dots.includes("e3") && marks.dots.includes("h4") && !marks.dots.includes("h10"), JSON.stringify(marks));
  await shot(a, "f-1-drag-1280");
  await a.mouse.move(to.x, to.y, { steps: 4 });
  await a.mouse.up();
  assert.deepEqual(await movesShown(a, 1), ["h3-e3 (C2=5)"]);
  await movesShown(b, 1);
  await a.waitForFunction(() => document.body.dataset.sound === "move");
  await b.waitForFunction(() => document.body.dataset.sound === "move");

  // While Black thinks, Red premoves the other cannon b3 to b10 (taking the horse).
  await boardDrawn(a);
  assert.equal(await a.locator("#board rect.square.movable").count(), 0, "not Red's turn");
  await square(a, "b3").click();
  await a.locator('#board rect.square.selected[data-square="b3"]').waitFor();
  assert.ok((await a.locator("#board .premove-move-dot").count()) > 0, "premove destinations are shown");
  await square(a, "b10").click();
  await a.locator("#board .premove-mark").first().waitFor();
  assert.equal(await a.locator("#board .premove-mark").count(), 2);
  await shot(a, "f-2-premove-set");

  // Black moves (a tap on the soldier, a tap on its destination): the premove is played.
  await myMove(b);
  await square(b, "a7").tap();
  assert.deepEqual(await destinations(b), ["a6"]);
  await square(b, "a6").tap();
  assert.deepEqual((await movesShown(a, 3)).slice(1), ["a7-a6 (P1+1)", "b3xb10 (C8+7)"]);
  assert.equal(await a.locator("#board .premove-mark").count(), 0, "the premove was played");
  await a.waitForFunction(() => document.body.dataset.sound === "capture");
  await movesShown(b, 3);
  await b.waitForFunction(() => document.body.dataset.sound === "capture");

  // Black's chariot a10 can take the cannon on b10: a ring there, dots on a7… a8, a9.
  await myMove(b);
  await square(b, "a10").tap();
  await b.locator('#board rect.square.selected[data-square="a10"]').waitFor();
  assert.deepEqual(await b.$$eval("#board .capture-ring", (cs) => cs.map((c) => c.dataset.square)), ["b10"]);
  assert.deepEqual(await b.$$eval("#board .move-dot", (cs) => cs.map((c) => c.dataset.square).sort()), ["a7", "a8", "a9"]);
  await shot(b, "f-3-capture-ring-390");
  const width = await b.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scroll on the phone (${width} px)`);
  await square(b, "a10").tap(); // lets go

  // A premove that is not legal when the turn comes is dropped: the cannon b10 to c9 (a
  // diagonal step no cannon makes).
  await square(a, "b10").click();
  await square(a, "c9").click();
  await a.locator("#board .premove-mark").first().waitFor();
  await square(b, "i7").tap();
  await square(b, "i6").tap();
  await movesShown(a, 4);
  await myMove(a);
  assert.equal(await a.locator("#board .premove-mark").count(), 0, "the illegal premove is dropped");
  await movesShown(a, 4);
  assert.equal((await state(a)).ply, 4);

  // ←/→/Home/End step through the moves (the focus on the page, not in a field).
  await a.locator("#game-title").click();
  const shownPly = () => a.evaluate(() => Number(document.querySelector("#board").dataset.ply));
  await a.keyboard.press("ArrowLeft");
  await a.waitForFunction(() => document.querySelector("#board").dataset.ply === "3");
  await a.keyboard.press("ArrowLeft");
  await a.waitForFunction(() => document.querySelector("#board").dataset.ply === "2");
  assert.equal(await a.locator("#moves button.move.current").textContent(), "a7-a6 (P1+1)");
  await a.keyboard.press("Home");
  await a.waitForFunction(() => document.querySelector("#board").dataset.ply === "0");
  await a.keyboard.press("ArrowRight");
  await a.waitForFunction(() => document.querySelector("#board").dataset.ply === "1");
  await a.keyboard.press("End");
  await a.waitForFunction(() => document.querySelector("#board").dataset.ply === "4");
  assert.equal(await shownPly(), 4);
  await myMove(a);

  // The sound switch: off, and no sound is asked for; the choice is kept.
  await a.click("#sound");
  assert.equal(await a.getAttribute("#sound", "aria-pressed"), "false");
  await a.evaluate(() => delete document.body.dataset.sound);
  const next = (await state(a)).legal.find((m) => m.uci === "e3e7") || (await state(a)).legal[0];
  await square(a, next.from).click();
  await square(a, next.to).click();
  await movesShown(a, 5);
  assert.equal(await lastSound(a), null, "no sound when switched off");
  await a.reload();
  await boardDrawn(a);
  assert.equal(await a.getAttribute("#sound", "aria-pressed"), "false");
  await s.finish();
});

test("a drag goes on through a state that moves nothing: the opponent offers a draw mid-drag", async (t) => {
  const { s, a, b } = await friendGame(t, { viewport: { width: 1280, height: 800 } });
  await b.locator("#draw-offer").waitFor();

  // Red picks up the cannon h3 and holds it mid-way to e3.
  const [from, to] = [await centre(a, "h3"), await centre(a, "e3")];
  await a.mouse.move(from.x, from.y);
  await a.mouse.down();
  await a.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 6 });
  await a.locator("#board g.piece.dragging").waitFor();
  // Black offers a draw meanwhile: Red's page gets a new state and fetches the board again,
  // the same picture.
  await b.click("#draw-offer");
  await a.locator("#draw-accept").waitFor();
  await a.locator('#board[aria-busy="false"]').waitFor();
  assert.equal(await a.locator('#board g.piece.dragging[data-square="h3"]').count(), 1, "the piece is still under the pointer");
  await a.mouse.move(to.x, to.y, { steps: 4 });
  await a.mouse.up();
  assert.deepEqual(await movesShown(a, 1), ["h3-e3 (C2=5)"], "the drop plays the move");
  await movesShown(b, 1);
  await s.finish();
});
