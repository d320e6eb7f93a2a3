// A game read from rule files on the site: `chuhe serve --rules examples/rules/lantern` offers
// Lantern (an invented 7×7 game) in the new-game form; two browsers play it by clicks through
// the invite link until the lord is taken; against the engine a lantern-bearer promotes by
// the chooser (tiger or catapult); a phone-sized screen fits the board.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { boardDrawn, clickMove, createGame, movesShown, myMove, session, shot, square, state } from "./harness.mjs";

const LANTERN = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../examples/rules/lantern");
// White's lantern-bearer on b6, the square before it empty: it promotes on b7.
const LANTERN_PROMOTION = "t1ck^cwt/1P5/7/7/7/7/TWCK^CWT / L/l";

test("Lantern from rule files: the form, two browsers by clicks to the lord taken, the record", async (t) => {
  const s = await session(t, ["--rules", LANTERN]);
  const a = await s.page("A");
  await a.goto(s.url + "/");
  const label = a.locator("label", { has: a.locator("input[name=game][value=lantern]") });
  assert.equal((await label.textContent()).trim(), "Lantern, 7×7 (from rule files)");
  // The lobby's seek form offers it too, casual only.
  await a.selectOption("#seek-form select[name=game]", "lantern");
  assert.equal(await a.locator("#seek-form input[name=rated]").isDisabled(), true);
  await a.check("input[name=game][value=lantern]");
  await a.check("input[name=opponent][value=friend]");
  await shot(a, "r-1-new-lantern-game");
  await a.click("#start");
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = a.url().split("/").pop();
  await myMove(a);
  // The move box shows a move of this game; no glyph switch (Lantern's pieces have none).
  assert.equal(await a.getAttribute("#move-input", "placeholder"), "a1a2, a1-a2");
  assert.equal(await a.locator("#glyphs").isVisible(), false);
  // Nor a choice of move notations: its moves have coordinates only.
  assert.equal(await a.locator(".notation-choice").isVisible(), false);
  await a.locator("#invite-link").waitFor();
  const invite = await a.inputValue("#invite-link");
  const b = await s.page("B");
  await b.goto(invite);
  await b.waitForURL(`${s.url}/g/${id}`);
  await movesShown(b, 0);
  // The page joins by the invite (then drops the code from the address): B holds the seat.
  await b.waitForFunction(async (id) => (await (await fetch(`/api/games/${id}`)).json()).you === "second", id);
  assert.equal((await state(b)).you, "second");
  // The board: 7 × 7 squares, the pieces as lettered discs.
  assert.equal(await a.locator("#board rect.square").count(), 49);
  await shot(a, "r-2-lantern-start");

  // The wisp runs to f5; Black pushes; the wisp takes the lord on d7.
  await clickMove(a, "b1", "f5");
  assert.deepEqual(await movesShown(b, 1), ["b1-f5"]);
  await clickMove(b, "b6", "b5");
  await movesShown(a, 2);
  await clickMove(a, "f5", "d7");
  await a.locator("#banner").waitFor();
  await boardDrawn(a);
  assert.equal(await a.textContent("#banner"), "Game over: Red wins: Black's lord was captured");
  assert.equal(await a.locator("#board rect.square.movable").count(), 0);
  // Lantern's captures go to the capturer's hand: Red holds the lord, Black nothing.
  assert.equal(await a.textContent("#player-bottom .hand"), "in hand: K");
  assert.equal(await a.locator("#player-top .hand").count(), 0);
  await shot(a, "r-3-lantern-lord-taken");
  await b.locator("#banner").waitFor();
  await b.waitForFunction(() => document.querySelector("#player-top .hand")?.textContent === "in hand: K");

  // The record names the game.
  const pcn = await a.evaluate(async (id) => (await fetch(`/api/games/${id}/pcn`)).json(), id);
  assert.equal(pcn.meta.game, "lantern");
  assert.equal(pcn.moves.length, 3);
  await s.finish();
});

test("Lantern against the engine: the promotion chooser names the pieces; a phone-sized screen", async (t) => {
  const s = await session(t, ["--rules", LANTERN]);
  const page = await s.page("player");
  await createGame(page, s.url, { game: "lantern", opponent: "engine", level: 0, position: LANTERN_PROMOTION });
  await clickMove(page, "b6", "b7");
  const dialog = page.locator("#promotion");
  await dialog.waitFor();
  assert.equal(await page.textContent("#promotion p"), "Promote into which piece?");
  const choices = await page.locator("#promotion-choices button").allTextContents();
  assert.deepEqual(choices.sort(), ["C (catapult)", "T (tiger)"]);
  await shot(page, "r-4-lantern-promotion");
  await page.click("#promotion-choices button:text-is('T (tiger)')");
  const moves = await movesShown(page, 1, { atLeast: true });
  assert.equal(moves[0], "b6-b7=T");
  await movesShown(page, 2);
  await myMove(page);
  await shot(page, "r-5-lantern-promoted");

  const phone = await s.page("phone", { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await createGame(phone, s.url, { game: "lantern", opponent: "engine", level: 0 });
  await myMove(phone);
  const fit = await phone.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    board: document.querySelector("#board svg").getBoundingClientRect().toJSON(),
  }));
  assert.ok(fit.scroll <= 390, `no horizontal scroll (page ${fit.scroll} px wide)`);
  assert.ok(fit.board.left >= 0 && fit.board.right <= 390 && fit.board.width >= 330, JSON.stringify(fit.board));
  await square(phone, "d2").tap();
  await phone.locator('#board rect.square.selected[data-square="d2"]').waitFor();
  await square(phone, "d3").tap();
  assert.equal((await movesShown(phone, 1, { atLeast: true }))[0], "d2-d3");
  await movesShown(phone, 2);
  await myMove(phone);
  await shot(phone, "r-6-lantern-phone");
  await s.finish();
});

const MINISHOGI = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../games/minishogi");
// Red holds a gold and a pawn (Fairy-Stockfish's FEN: the hands in brackets), and has a pawn
// on file a.
const MINISHOGI_HANDS = "k4/5/5/P4/4K[GP] w - - 0 1";

test("Minishogi: pieces held are dropped from the hand by clicks", async (t) => {
  const s = await session(t, ["--rules", MINISHOGI]);
  const page = await s.page("player");
  await createGame(page, s.url, { game: "minishogi", opponent: "engine", level: 0, position: MINISHOGI_HANDS });
  await myMove(page);
  // The hand is shown, with a button for each piece Red may drop now.
  await page.locator("#player-bottom .hand button.drop").first().waitFor();
  // In the manifest's order of drops.
  assert.deepEqual(await page.locator("#player-bottom .hand button.drop").allTextContents(), ["P", "G"]);
  // Drops are not offered on the board itself: no empty square is movable.
  assert.equal(await page.locator('#board rect.square.movable[data-square="c3"]').count(), 0);
  // The pawn: every empty square of files b–e below the last rank (not file a, which has one).
  await page.click("#player-bottom .hand button.drop[data-piece=P]");
  const marked = await page.$$eval("#board .drop-dot", (cs) => cs.map((c) => c.dataset.square).sort());
  const legal = (await state(page)).legal.filter((m) => m.uci.startsWith("P@")).map((m) => m.to).sort();
  assert.deepEqual(marked, legal);
  assert.ok(marked.length === 15 && !marked.some((sq) => sq.startsWith("a") || sq.endsWith("5")), marked.join(" "));
  await shot(page, "r-7-minishogi-drop-marked");
  // Another square lets the piece go; then the gold is dropped on c3.
  await square(page, "a2").click();
  assert.equal(await page.locator("#board .drop-dot").count(), 0);
  await page.click("#player-bottom .hand button.drop[data-piece=G]");
  await square(page, "c3").click();
  const moves = await movesShown(page, 1, { atLeast: true });
  assert.equal(moves[0], "G*c3");
  await movesShown(page, 2);
  await myMove(page);
  await page.waitForFunction(() => document.querySelector("#player-bottom .hand")?.textContent.startsWith("in hand: P"));
  assert.deepEqual(await page.locator("#player-bottom .hand button.drop").allTextContents(), ["P"]);
  await shot(page, "r-8-minishogi-dropped");
  // At phone width the hand and its button fit.
  await page.setViewportSize({ width: 390, height: 844 });
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 390, `no horizontal scroll (page ${scroll} px wide)`);
  await shot(page, "r-9-minishogi-phone");
  await s.finish();
});
