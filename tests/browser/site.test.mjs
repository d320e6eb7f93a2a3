// The site as a club uses it, in Chromium, on two `chuhe serve` processes sharing one
// PostgreSQL database (as behind a balancer): sign-up and login, a rated seek made on one
// server and accepted on the other, the game played to a resignation with the ratings
// changed, a rematch offered and accepted, an abort, profiles, the leaderboard, the archive
// with its filters, a name that looks like markup shown as text; every main screen
// photographed at 1280×800 and 390×844 and checked for horizontal overflow.
//
// Needs CHUHE_TEST_POSTGRES (scripts/browser-test runs it under scripts/with-postgres).

import { test } from "node:test";
import assert from "node:assert/strict";
import { choose, clickMove, movesShown, myMove, shot, state, world } from "./harness.mjs";

const DATABASE = process.env.CHUHE_TEST_POSTGRES;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** Signs up on the page of `url`. */
async function signUp(page, url, name, password = "correct horse") {
  await page.goto(url + "/signup");
  await page.fill("#signup-form input[name=name]", name);
  await page.fill("#signup-form input[name=password]", password);
  await page.click("#signup-form button[type=submit]");
  await page.waitForURL(url + "/");
  await page.waitForFunction((name) => document.querySelector("#user-menu").textContent.includes(name), name);
}

/** Fails when the page is wider than its window (a table or card running off a phone). */
async function noOverflow(page, what) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(scroll <= inner, `${what}: the page is ${scroll} px wide in a ${inner} px window`);
}

/** Photographs `path` of `url` at desktop and phone width, checking both for overflow. */
async function bothWidths(s, desktop, phone, url, path, name, ready) {
  for (const [page, width] of [
    [desktop, "desktop"],
    [phone, "phone"],
  ]) {
    await page.goto(url + path);
    await ready(page);
    await noOverflow(page, `${name} (${width})`);
    await shot(page, `s-${name}-${width}`);
  }
}

test("a club's site: accounts, a rated seek accepted on another server, ratings, rematch, abort, profiles, archive", async (t) => {
  assert.ok(DATABASE, "CHUHE_TEST_POSTGRES is not set: run this under scripts/with-postgres (scripts/browser-test does)");
  const s = await world(t);
  const one = (await s.server({ db: DATABASE, args: ["--abort-after", "600"] })).url;
  const two = (await s.server({ db: DATABASE, args: ["--abort-after", "600"] })).url;

  // Two players sign up, A on server one and B on server two.
  const a = await s.page("A on server one", { viewport: DESKTOP });
  const b = await s.page("B on server two", { viewport: DESKTOP });
  await signUp(a, one, "Alice 楚");
  await signUp(b, two, "Bảo");
  // A logs out and in again: the session is new, the name the same.
  await a.click("#logout");
  await a.waitForFunction(() => /Log in/.test(document.querySelector("#user-menu").textContent));
  await a.goto(one + "/login");
  await a.fill("#login-form input[name=name]", "alice 楚");
  await a.fill("#login-form input[name=password]", "wrong password");
  a.allowed.push(/status of 401/);
  await a.click("#login-form button[type=submit]");
  await a.waitForFunction(() => document.querySelector("#login-form .error").textContent === "Wrong name or password.");
  await a.fill("#login-form input[name=password]", "correct horse");
  await a.click("#login-form button[type=submit]");
  await a.waitForURL(one + "/");
  await a.waitForFunction(() => document.querySelector("#user-menu").textContent.includes("Alice 楚"));

  // A seeks a rated 3+2 on server one; B sees it live on server two and takes it: both go to
  // the game.
  await b.locator("#no-seeks").waitFor();
  await a.click("button.quick[data-tc='3+2']");
  await a.locator("#seek-table tr.mine").waitFor();
  const seekRow = b.locator("#seek-table tbody tr", { hasText: "Alice 楚" });
  await seekRow.waitFor();
  assert.match(await seekRow.textContent(), /1500\?.*Xiangqi.*3\+2.*Rated/);
  await shot(b, "s-lobby-B-sees-the-seek");
  await seekRow.locator("button.accept").click();
  await b.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = b.url().split("/").pop();
  assert.equal(a.url().split("/").pop(), id, "both players are in the same game");
  const [sa, sb] = [await state(a), await state(b)];
  assert.ok(sa.you && sb.you && sa.you !== sb.you, "one seat each");
  assert.equal(sa.rated, true);
  assert.equal(sa.clock.control, "180+2");
  const [red, black] = sa.you === "first" ? [a, b] : [b, a];
  await red.waitForFunction(() => /Xiangqi · 3\+2 · Rated/.test(document.querySelector("#game-title").textContent));
  await red.waitForFunction(() => document.querySelector("#player-bottom").textContent.includes("1500?"));

  // A few moves, then Black resigns: ratings change on both pages.
  const plans = [["h3e3", "b3e3"], ["h10g8", "b10c8"], ["h1g3", "b1c3"], ["i10h10", "a10b10"]];
  for (const [i, preferred] of plans.entries()) {
    const mover = i % 2 === 0 ? red : black;
    const move = await choose(mover, ...preferred);
    await clickMove(mover, move.from, move.to);
    await movesShown(red, i + 1);
    await movesShown(black, i + 1);
  }
  await myMove(red);
  await shot(red, "s-game-rated-desktop");
  await black.click("#resign");
  for (const p of [red, black]) {
    await p.locator("#banner").waitFor();
    assert.equal(await p.textContent("#banner"), "Game over: Red wins by resignation");
    await p.waitForFunction(() => /\+\d+/.test(document.querySelector(".diff.up")?.textContent ?? ""));
  }
  const ended = await state(red);
  assert.ok(ended.players[0].diff > 0 && ended.players[1].diff < 0, JSON.stringify(ended.players));
  assert.equal(await red.locator("#takeback").isVisible(), false);

  // Black offers a rematch; Red accepts; both go to the new game, colours swapped.
  await black.click("#rematch");
  await red.locator("#rematch-accept").waitFor();
  assert.match(await red.textContent("#status"), /Black offers a rematch/);
  await red.click("#rematch-accept");
  for (const p of [red, black]) await p.waitForURL((u) => /\/g\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(id));
  const rematch = red.url().split("/").pop();
  assert.equal(black.url().split("/").pop(), rematch);
  assert.equal((await state(red)).you, "second", "Red of the first game plays Black now");
  // Before both sides have moved the game can be aborted: nothing rated.
  await red.locator("#abort").waitFor();
  assert.equal(await red.locator("#resign").isVisible(), false);
  await red.click("#abort");
  for (const p of [red, black]) {
    await p.locator("#banner").waitFor();
    assert.equal(await p.textContent("#banner"), "Game over: Game aborted");
  }

  // A player whose name looks like markup: shown as text everywhere.
  const c = await s.page("C", { viewport: DESKTOP });
  await signUp(c, one, "<b>Ada</b>");
  await c.goto(one + "/@/" + encodeURIComponent("<b>Ada</b>"));
  await c.locator("#profile h1").waitFor();
  assert.equal(await c.textContent("#profile h1"), "<b>Ada</b>");
  assert.equal(await c.locator("#profile b, #user-menu b").count(), 0, "no element made from the name");
  assert.equal(await c.textContent("#user-menu a"), "<b>Ada</b>");

  // The profile, the leaderboard and the archive, at both widths.
  const redName = red === a ? "Alice 楚" : "Bảo";
  const phone = await s.page("phone", PHONE);
  await phone.goto(one + "/");
  await bothWidths(s, a, phone, one, "/", "lobby", (p) => p.locator("#quick").waitFor());
  await bothWidths(s, a, phone, one, `/@/${encodeURIComponent(redName)}`, "profile", async (p) => {
    await p.locator("#ratings tr[data-perf='xiangqi:blitz']").waitFor();
    await p.locator("#profile-games li.game-card").nth(1).waitFor();
    assert.match(await p.textContent("#record"), /Games: 1 — won 1, lost 0, drawn 0/);
    await p.waitForFunction(() => document.querySelector("#rating-chart").complete && document.querySelector("#rating-chart").naturalWidth > 0);
  });
  await bothWidths(s, a, phone, one, "/leaderboard", "leaderboard", async (p) => {
    await p.locator("table[data-perf='xiangqi:blitz'] tbody tr").nth(1).waitFor();
    const names = await p.locator("table[data-perf='xiangqi:blitz'] tbody tr td:nth-child(2)").allTextContents();
    assert.deepEqual(names, [redName, redName === "Bảo" ? "Alice 楚" : "Bảo"], "the winner first");
  });
  await bothWidths(s, a, phone, one, `/archive?player=${encodeURIComponent("Bảo")}`, "archive", async (p) => {
    await p.locator("#games li.game-card").nth(1).waitFor();
    assert.match(await p.textContent("#archive-count"), /Games found: 2/);
  });
  // The archive's filters, from the form.
  await a.goto(one + "/archive");
  await a.locator("#games li.game-card").first().waitFor();
  await a.selectOption("#archive-filters select[name=result]", "aborted");
  await a.click("#archive-filters button[type=submit]");
  await a.waitForFunction(() => document.querySelector("#archive-count").textContent === "Games found: 1");
  assert.match(await a.locator("#games li.game-card").textContent(), /Game aborted/);
  assert.match(a.url(), /result=aborted/);
  await bothWidths(s, a, phone, one, `/g/${id}`, "finished-game", (p) => p.locator("#banner").waitFor());
  await bothWidths(s, a, phone, one, "/login", "login", (p) => p.locator("#login-form").waitFor());
  await s.finish();
});
