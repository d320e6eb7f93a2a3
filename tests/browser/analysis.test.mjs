// The analysis board, the review and the board editor, in Chromium: a finished game opened
// for analysis (the evaluation bar moves, arrows drawn, lines in the page's notation), a
// variation entered and left, a review that finds the planted blunder (a chariot left to a
// cannon), a board edited into a position the rules refuse (the core's typed reason shown)
// and then into one they accept. Screenshots at 1280×800 and 390×844.
//
// Run: scripts/browser-test (or, in tests/browser, `node --test analysis.test.mjs`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { clickMove, movesShown, myMove, session, shot, square } from "./harness.mjs";

/** Plays a friend game in which Red's chariot steps behind its own cannon, which screens it
 * for Black's cannon: 1. h1-g3 h10-g8 2. i1-h1?? h8xh1, and Red resigns. Its id. */
async function blunderGame(s) {
  const red = await s.page("Red", { viewport: { width: 1280, height: 800 } });
  await red.goto(s.url + "/");
  await red.check("input[name=game][value=xiangqi]");
  await red.check("input[name=opponent][value=friend]");
  await red.click("#start");
  await red.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = red.url().split("/").pop();
  await red.locator("#invite-link").waitFor();
  const black = await s.page("Black");
  await black.goto(await red.inputValue("#invite-link"));
  await black.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await clickMove(red, "h1", "g3");
  await movesShown(black, 1);
  await clickMove(black, "h10", "g8");
  await movesShown(red, 2);
  await clickMove(red, "i1", "h1");
  await movesShown(black, 3);
  await clickMove(black, "h8", "h1");
  await movesShown(red, 4);
  await myMove(red);
  await red.click("#resign");
  await red.locator("#banner").waitFor();
  // The finished game offers its analysis.
  await red.locator("#analyse-link").waitFor();
  assert.equal(await red.getAttribute("#analyse-link", "href"), `/analysis?g=${id}`);
  await black.context().close();
  return { id, red };
}

/** How long a move of the board may take while an analysis holds both engine threads: on a
 * loaded machine the page's position request waits (CI timed out at the default 15 s). */
const LOADED = 30_000;

/** Waits until the board shows `ply` (within `timeout` ms). */
const boardAt = (page, ply, timeout = 15_000) =>
  page.waitForFunction((p) => document.querySelector("#board").dataset.ply === p, String(ply), { timeout });

/** The first player's expected score the evaluation bar shows (permille). */
const barExpected = (page) => page.evaluate(() => Number(document.querySelector("#eval-bar")?.dataset.expected));

test("analysis of a finished game: eval bar, arrows, lines, a variation; the review finds the blunder", async (t) => {
  const s = await session(t, ["--review-nodes", "20000", "--engine-threads", "2"]);
  const { id, red: page } = await blunderGame(s);
  await page.click("#analyse-link");
  await page.waitForURL(`${s.url}/analysis?g=${id}`);
  await page.locator('#board[aria-busy="false"] svg').waitFor();
  // The tree holds the game's four moves; the board shows the end.
  assert.equal(await page.locator("#tree button.move").count(), 4);
  assert.equal(await page.getAttribute("#board", "data-ply"), "4");

  // Back to before the blunder: the engine's lines come, with arrows and the bar.
  await page.click('#tree button.move[data-ply="2"]');
  // (the review's search has both engine threads: on a loaded machine the board may wait)
  await boardAt(page, 2, LOADED);
  await page.locator("#lines li.line").first().waitFor({ timeout: 20_000 });
  // (the head: a straight line has no width for the visibility check)
  await page.locator("#board .analysis-arrow-head.best").waitFor();
  const lineText = await page.textContent("#lines li.line");
  assert.match(lineText, /^[+-]?\d+\.\d\d|^#-?\d+/, `a line starts with its score: ${lineText}`);
  assert.match(lineText, /[A-Z][1-9][+.=-][1-9]/, `the line is written in WXF: ${lineText}`);
  // Shallow lines may swing; the bar settles near even before the blunder.
  await page
    .waitForFunction(() => {
      const e = Number(document.querySelector("#eval-bar")?.dataset.expected);
      return e > 300 && e < 700;
    }, null, { timeout: 20_000 })
    .catch(async () => assert.fail(`the bar is not near even before the blunder: ${await barExpected(page)}`));
  await shot(page, "a-1-analysis-1280");

  // After the blunder the bar swings to Black.
  await page.click('#tree button.move[data-ply="3"]');
  // (the analysis of ply 2 holds both engine threads meanwhile: as above, the board may wait)
  await boardAt(page, 3, LOADED);
  await page.waitForFunction(() => Number(document.querySelector("#eval-bar")?.dataset.expected) < 250, null, { timeout: 20_000 });

  // A variation: from ply 2 Red plays c4-c5 instead; the tree shows it in brackets.
  await page.keyboard.press("ArrowLeft");
  await boardAt(page, 2);
  await square(page, "c4").click();
  await square(page, "c5").click();
  await boardAt(page, 3);
  await page.locator("#tree .variation button.move.current").waitFor();
  assert.match(await page.textContent("#tree .variation"), /P7\+1/);
  // Leaving it: ← goes back to the branch, ↓/↑ switch between the move and the variation.
  await page.keyboard.press("ArrowLeft");
  await boardAt(page, 2);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector("#tree button.move.current")?.dataset.uci === "i1h1");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.querySelector("#tree button.move.current")?.dataset.uci === "c4c5");
  // An engine line's move plays into the tree.
  await page.locator("#lines li.line button.pv-move").first().waitFor({ timeout: 20_000 });
  await page.click("#lines li.line button.pv-move");
  await boardAt(page, 4);

  // The review: requested, computed once, the blunder found.
  await page.click("#review-start");
  await page.locator("#review-chart svg").waitFor({ timeout: 60_000 });
  assert.equal(await page.textContent('#review-players tr[data-side="first"] td.blunders'), "1");
  const marked = await page.$$eval("#tree .tree-line > button.move.blunder", (bs) => bs.map((b) => b.dataset.uci));
  assert.deepEqual(marked, ["i1h1"], "the chariot left to the cannon is the blunder");
  assert.equal(await page.locator("#review-chart .mark.blunder").count(), 1);
  const review = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/review`)).json(), id);
  assert.equal(review.state, "done");
  assert.equal(review.moves[2].class, "blunder");
  assert.notEqual(review.moves[2].best, "i1h1");
  // Clicking the chart goes to a move.
  const chart = await page.locator("#review-chart svg").boundingBox();
  await page.mouse.click(chart.x + 1, chart.y + chart.height / 2);
  await boardAt(page, 0);
  await shot(page, "a-2-review-1280");
  // A second look costs nothing: the review is there on opening.
  const again = await s.page("later", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await again.goto(`${s.url}/analysis?g=${id}`);
  await again.locator("#review-chart svg").waitFor();
  assert.equal(await again.locator("#review-start").isVisible(), false);
  const width = await again.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scroll on the phone (${width} px)`);
  await shot(again, "a-3-review-390");
  await s.finish();
});

test("board editor: a position the rules refuse shows the core's reason; a good one opens in analysis", async (t) => {
  const s = await session(t);
  const page = await s.page("editor", { viewport: { width: 1280, height: 800 } });
  // The editor asks the server about each position; a refused one is answered 400.
  page.allowed.push(/status of 400 \(Bad Request\)/);
  await page.goto(`${s.url}/editor?game=xiangqi`);
  await page.locator("#board svg").waitFor();
  await page.waitForFunction(() => (document.querySelector("#editor-verdict")?.textContent ?? "") !== "");
  assert.equal(await page.textContent("#editor-verdict"), "The rules accept this position.");
  assert.equal(await page.locator("#board g.placed > g").count(), 32);
  // Take Red's general off: refused, with the core's reason.
  await page.click("#editor-eraser");
  await square(page, "e1").click();
  await page.waitForFunction(() => document.querySelector("#editor-verdict")?.className === "error");
  const refused = await page.textContent("#editor-verdict");
  assert.match(refused, /^The rules refuse this position: .+/);
  assert.match(refused, /general/i, `the reason names what is missing: ${refused}`);
  assert.equal(await page.getAttribute("#editor-analyse", "aria-disabled"), "true");
  await shot(page, "a-4-editor-refused");
  // Put it back on e2 (inside the palace), take away Black's chariots, Black to move.
  await page.click('.piece-tool[data-token="G^"]');
  await square(page, "e2").click();
  await page.click("#editor-eraser");
  await square(page, "a10").click();
  await square(page, "i10").click();
  await page.selectOption("#editor-turn", "second");
  await page.waitForFunction(() => document.querySelector("#editor-verdict")?.className === "ok");
  const feen = await page.inputValue("#editor-feen");
  assert.equal(feen, "1heag^aeh1/9/1c5c1/s1s1s1s1s/9/9/S1S1S1S1S/1C5C1/4G^4/RHEA1AEHR / x/X");
  await page.click("#editor-analyse");
  await page.waitForURL(/\/analysis\?/);
  await page.locator('#board[aria-busy="false"] svg').waitFor();
  assert.equal(await page.inputValue("#feen"), feen);
  await page.locator("#lines li.line").first().waitFor({ timeout: 20_000 });
  await shot(page, "a-5-editor-analysis");
  await s.finish();
});
