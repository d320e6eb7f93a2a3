// Two `chuhe serve` processes on one PostgreSQL database act as one service: the two players
// of a game, each in their own browser and each on a different server, see each other's
// moves, draw offers and the game's end live (the servers pass changes through PostgreSQL's
// LISTEN/NOTIFY), and both servers hold the same game at the end.
//
// Needs CHUHE_TEST_POSTGRES, the URL of a PostgreSQL database to use (scripts/browser-test
// runs these tests under scripts/with-postgres, which makes a throwaway cluster); without it
// the test fails and says so.

import { test } from "node:test";
import assert from "node:assert/strict";
import { choose, clickMove, lastMoveMarked, movesShown, myMove, shot, square, state, world } from "./harness.mjs";

const DATABASE = process.env.CHUHE_TEST_POSTGRES;

/** The game as a server holds it, asked by Node (no cookie: a spectator's view). */
async function held(server, id) {
  const response = await fetch(`${server}/api/games/${id}`);
  assert.equal(response.status, 200, `GET ${server}/api/games/${id}`);
  return response.json();
}

test("two players on two servers sharing PostgreSQL see each other's moves, the draw offer and the end live", async (t) => {
  assert.ok(
    DATABASE,
    "CHUHE_TEST_POSTGRES is not set: run this under scripts/with-postgres (scripts/browser-test does)",
  );
  const s = await world(t);
  // One after the other: the first creates the tables.
  const one = (await s.server({ db: DATABASE })).url;
  const two = (await s.server({ db: DATABASE })).url;
  assert.notEqual(one, two);

  // A creates a game between friends on server one.
  const a = await s.page("A on server one");
  await a.goto(one + "/");
  await a.check("input[name=game][value=xiongqi]");
  await a.check("input[name=opponent][value=friend]");
  await a.click("#start");
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = a.url().split("/").pop();
  await myMove(a);
  const invite = await a.inputValue("#invite-link");
  assert.ok(invite.startsWith(`${one}/g/${id}?invite=`), invite);

  // B opens the invite on server two (the same path, the other server's origin).
  const b = await s.page("B on server two");
  await b.goto(two + invite.slice(one.length));
  await b.waitForURL(`${two}/g/${id}`);
  await b.waitForFunction(() => document.querySelector("#status").textContent === "South to move");
  assert.equal((await state(b)).you, "second");
  // A spectator on server two as well.
  const c = await s.page("spectator on server two");
  await c.goto(`${two}/g/${id}`);
  await movesShown(c, 0);
  for (const p of [a, b, c]) await p.evaluate(() => (window.stillHere = true)); // a reload would clear it

  // Six moves, each played by clicks on one server and shown live on the other.
  const played = [];
  const plans = [
    ["e3e4", "d3d4"],
    ["d6d5", "e6e5"],
    ["f3f4", "c3c4"],
    ["c6c5", "f6f5"],
    ["b1c3", "g1f3"],
    ["g8f6", "b8c6"],
  ];
  for (const [i, preferred] of plans.entries()) {
    const [mover, other] = i % 2 === 0 ? [a, b] : [b, a];
    const move = await choose(mover, ...preferred);
    await clickMove(mover, move.from, move.to);
    played.push(move.pmn);
    assert.deepEqual((await movesShown(mover, played.length)).map((m) => m.split(" ")[0]), played);
    assert.deepEqual(
      (await movesShown(other, played.length)).map((m) => m.split(" ")[0]),
      played,
      `move ${i + 1} reached the other server's page`,
    );
    await lastMoveMarked(other, move.from, move.to);
    await movesShown(c, played.length);
  }
  await myMove(a);
  for (const p of [a, b, c]) assert.equal(await p.evaluate(() => window.stillHere), true, "no page was reloaded");
  await shot(a, "i-1-cluster-A-server-one");
  await shot(b, "i-2-cluster-B-server-two");

  // B offers a draw on server two; A sees the offer on server one and declines it; B hears
  // of that. Then A moves, B offers again, and A accepts: both pages show the end.
  const seventh = await choose(a, "a1a2", "h1h2");
  await clickMove(a, seventh.from, seventh.to);
  await movesShown(b, 7);
  await myMove(b);
  await b.click("#draw-offer");
  await a.locator("#draw-accept").waitFor();
  assert.match(await a.textContent("#status"), /North offers a draw/);
  await a.click("#draw-decline");
  await b.waitForFunction(() => /declined the draw/.test(document.querySelector("#notice").textContent));
  const eighth = await choose(b, "a8a7", "h8h7");
  await clickMove(b, eighth.from, eighth.to);
  await movesShown(a, 8);
  const ninth = await choose(a, "a2a3", "h2h3");
  await clickMove(a, ninth.from, ninth.to);
  await movesShown(b, 9);
  await myMove(b);
  await b.click("#draw-offer");
  await a.locator("#draw-accept").waitFor();
  await a.click("#draw-accept");
  for (const p of [a, b, c]) {
    await p.locator("#banner").waitFor();
    assert.equal(await p.textContent("#banner"), "Game over: Draw by agreement");
    await p.waitForFunction(() => !document.querySelector("#board rect.square.movable"));
  }
  await shot(b, "i-3-cluster-B-drawn");

  // Both servers hold the same game: its moves, its result and its version.
  const [onOne, onTwo] = [await held(one, id), await held(two, id)];
  assert.equal(onOne.result.status, "agreement");
  assert.equal(onOne.result.winner, "none");
  assert.equal(onOne.moves.length, 9);
  assert.deepEqual(onTwo, onOne);
  // Neither player can move any more, on either server.
  await square(a, "a3").click();
  assert.equal(await a.locator("#board rect.square.selected").count(), 0);
  await s.finish();
});
