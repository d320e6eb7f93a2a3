// Pages of another origin, in the player's own browser: a site on another port of 127.0.0.1
// (same-site for the browser, so the player's SameSite=Strict cookie for chuhe goes along with
// its requests) tries to move through the game's WebSocket, to resign and to take back by a
// plain auto-submitted form and by fetch (no-cors), and to frame the game page. Each attempt
// must fail: the server answers 403 (or refuses the WebSocket's handshake) and the game's
// stored state, its version included, stays as it was. The last test serves the same attack
// pages to a server that names the attacker's origin with --allowed-origin, where they
// succeed: the refusals are the origin check's, not attacks that could never have worked.
//
// (Cookies do not keep ports apart: the browser sends the player's chuhe cookie to the
// attacker's port too (the resignation test checks it). A server that shares its host name with
// other services shares its players' tokens with them; give chuhe a host name of its own.)
//
// Run with scripts/browser-test. Screenshots go to artifacts/ beside this file.

import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { clickMove, createGame, movesShown, myMove, session, shot, state, world } from "./harness.mjs";

// ------------------------------------------------------------------ the attacker's site

/**
 * A tiny HTTP server on a free port of 127.0.0.1 (another origin than chuhe's): `serve(html)`
 * puts a page on it and returns its address.
 */
async function attackerSite(t) {
  const pages = new Map();
  const cookies = [];
  const server = http.createServer((request, response) => {
    if (request.headers.cookie) cookies.push(request.headers.cookie);
    const html = pages.get(new URL(request.url, "http://attacker").pathname);
    if (html === undefined) {
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("no such page");
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    response.end(html);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  const origin = `http://127.0.0.1:${server.address().port}`;
  let served = 0;
  return {
    origin,
    /** The Cookie headers the site received. */
    cookies,
    serve(html) {
      const at = `/attack-${++served}`;
      pages.set(at, `<!doctype html><meta charset="utf-8"><title>not chuhe</title><body>${html}</body>`);
      return origin + at;
    },
  };
}

/**
 * A new tab in the context of the player's `page` (the same browser, the player's cookies),
 * for an attacker's page. Its console lines are kept in `.console` (the browser's reports of
 * refused requests are expected there, not failures); `.sent(url)` gives the headers the
 * browser really sent to `url` (as Chromium's DevTools protocol reports them: the Origin and
 * Cookie headers are added below what playwright sees), and `.handshakes(url)` those of
 * WebSocket handshakes.
 */
async function attackerTab(s, page, name = "attacker") {
  const attack = await s.pageBeside(page, name);
  attack.allowed.push(/./);
  attack.console = [];
  attack.on("console", (msg) => attack.console.push(msg.text()));
  const cdp = await page.context().newCDPSession(attack);
  await cdp.send("Network.enable");
  const urls = new Map();
  const sent = [];
  const handshakes = [];
  cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
  cdp.on("Network.requestWillBeSentExtraInfo", (e) => sent.push(e));
  cdp.on("Network.webSocketCreated", (e) => urls.set(e.requestId, e.url));
  cdp.on("Network.webSocketWillSendHandshakeRequest", (e) => handshakes.push(e));
  const lower = (headers) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  attack.sent = (url) => sent.filter((e) => urls.get(e.requestId) === url).map((e) => lower(e.headers));
  attack.handshakes = (url) => handshakes.filter((e) => urls.get(e.requestId) === url).map((e) => lower(e.request.headers));
  return attack;
}

/** An attacker's tab (see `attackerTab`) that has opened `url`. */
async function openAttack(s, page, url) {
  const attack = await attackerTab(s, page);
  await attack.goto(url);
  return attack;
}

/**
 * Waits until `check()` is true (what the browser reports comes by events, a moment after
 * the page's own view of it); fails saying `what` after 5 s.
 */
async function eventually(check, what) {
  const until = Date.now() + 5000;
  while (!check()) {
    assert.ok(Date.now() < until, typeof what === "function" ? what() : what);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The attack pages: each sets `window.attack` to a promise of what it saw. */
const pages = {
  /** Opens the game's WebSocket and sends `message` once it is open; the events seen. */
  socket: (server, id, message) => `<script>
    window.attack = new Promise((resolve) => {
      const events = [];
      const socket = new WebSocket(${JSON.stringify(server.replace(/^http/, "ws") + `/api/games/${id}/ws`)});
      socket.onopen = () => {
        events.push("open");
        socket.send(${JSON.stringify(JSON.stringify(message))});
      };
      socket.onmessage = (e) => {
        const m = JSON.parse(e.data);
        events.push(m.type === "ack" ? "ack " + m.action : m.type);
        if (m.type === "ack" || m.type === "error") socket.close();
      };
      socket.onerror = () => events.push("error");
      socket.onclose = (e) => {
        events.push("close " + e.code);
        resolve(events);
      };
    });
  </script>`,
  /** A plain form, posted as soon as the page loads (no script needed to read anything). */
  form: (action) => `<form id="f" method="POST" action="${action}"><input type="hidden" name="x" value="1"></form>
    <script>document.getElementById("f").submit();</script>`,
  /** fetch in no-cors mode with the browser's cookies: the page cannot read the answer. */
  fetch: (action) => `<script>
    window.attack = fetch(${JSON.stringify(action)}, { method: "POST", mode: "no-cors", credentials: "include" })
      .then((r) => "answered (" + r.type + ")", (e) => "failed: " + e.message);
  </script>`,
};

/** The state as the server holds it, asked by Node itself (no browser, no cookie). */
async function stored(server, id) {
  const response = await fetch(`${server}/api/games/${id}`);
  assert.equal(response.status, 200);
  return response.json();
}

/**
 * Asserts that the browser sent `headers` from the attacker's `origin` with the player's
 * session cookie: only the origin check stands in the attack's way (SameSite=Strict
 * does not, as another port of the same host is the same site).
 */
function assertSentWithCookie(headers, { origin }) {
  assert.ok(headers, "the browser sent the request");
  assert.equal(headers.origin, origin, "the request names the attacker's origin");
  assert.match(headers.cookie ?? "", /(^|; )chuhe_session=[0-9a-f]+/, "the browser sent the player's session cookie");
}

/**
 * Asserts what the server answered to a request of the attack tab (`status`: the page itself
 * cannot read it) and how the browser sent it (see `assertSentWithCookie`).
 */
async function assertAnswer(attack, response, { status, origin, id }) {
  assert.equal(response.status(), status, `${response.request().method()} ${response.url()}`);
  await eventually(() => attack.sent(response.url()).length > 0, `no headers reported for ${response.url()}`);
  assertSentWithCookie(attack.sent(response.url()).at(-1), { origin, id });
}

/** Waits until the tab whose form was posted to `action` shows the server's refusal. */
async function refusalShown(attack, action) {
  await attack.waitForURL(action);
  const answer = JSON.parse(await attack.textContent("body"));
  assert.equal(answer.error.code, "cross_origin", JSON.stringify(answer));
  assert.match(answer.error.message, /may not change games here/);
}

/** The state of an engine game once the engine has answered (nothing left to change it). */
async function settled(page, ply) {
  await movesShown(page, ply);
  await myMove(page);
  await page.waitForFunction(async () => {
    const id = location.pathname.split("/").pop();
    const s = await (await fetch(`/api/games/${id}`)).json();
    return !s.thinking;
  });
  return state(page);
}

// ------------------------------------------------------------------ the tests

test("another origin cannot move through the game's WebSocket: the handshake is refused (403), the game unchanged", async (t) => {
  const s = await session(t);
  const site = await attackerSite(t);
  const player = await s.page("player");
  const id = await createGame(player, s.url, { game: "xiongqi", opponent: "friend" });
  await myMove(player);
  const before = await state(player);
  assert.equal(before.you, "first");

  const attack = await openAttack(s, player, site.serve(pages.socket(s.url, id, { type: "move", move: "e3e4", ply: 0 })));
  const events = await attack.evaluate(() => window.attack);
  assert.deepEqual(events, ["error", "close 1006"], "the socket never opened");
  const socketUrl = `${s.url.replace(/^http/, "ws")}/api/games/${id}/ws`;
  // (The handshake's headers as reported lack the cookie, which the network stack adds later;
  // the last test shows that the same page's socket does carry it.)
  await eventually(() => attack.handshakes(socketUrl).length > 0, "no handshake reported");
  assert.equal(attack.handshakes(socketUrl).at(-1).origin, site.origin, "the handshake names the attacker's origin");
  await eventually(
    () => attack.console.some((line) => /WebSocket connection to .*\/api\/games\/.*\/ws' failed.*403/.test(line)),
    () => `the browser reports the 403: ${attack.console.join(" | ")}`,
  );
  // The same message from a socket the player's page opens (its own origin) would be a move:
  // none was made.
  const seen = await stored(s.url, id);
  assert.deepEqual([seen.version, seen.ply], [before.version, 0], "the server's copy is unchanged");
  assert.deepEqual(await state(player), before);
  await movesShown(player, 0);
  await shot(attack, "h-1-foreign-socket-refused");
  await s.finish();
});

test("another origin cannot resign: an auto-submitted form and a no-cors fetch get 403, the game goes on", async (t) => {
  const s = await session(t);
  const site = await attackerSite(t);
  const player = await s.page("player");
  const id = await createGame(player, s.url, { game: "xiongqi", opponent: "friend" });
  await myMove(player); // resigning is allowed on the player's own turn: it is now
  const before = await state(player);
  const resign = `${s.url}/api/games/${id}/resign`;

  const answered = (page) => page.waitForResponse((r) => r.url() === resign);
  let attack = await attackerTab(s, player, "attacker (fetch)");
  let response = answered(attack);
  await attack.goto(site.serve(pages.fetch(resign)));
  await assertAnswer(attack, await response, { status: 403, origin: site.origin, id });
  assert.equal(await attack.evaluate(() => window.attack), "answered (opaque)");

  attack = await attackerTab(s, player, "attacker (form)");
  response = answered(attack);
  await attack.goto(site.serve(pages.form(resign)));
  await assertAnswer(attack, await response, { status: 403, origin: site.origin, id });
  await refusalShown(attack, resign);
  // The attacker's own server received the player's cookie for chuhe as well.
  assert.ok(
    site.cookies.some((c) => /(^|; )chuhe_session=/.test(c)),
    `cookies do not keep ports apart: ${site.cookies.join(" | ")}`,
  );
  await shot(attack, "h-2-foreign-form-resign-refused");

  const after = await state(player);
  assert.equal(after.result, null, "the game is not over");
  assert.deepEqual(after, before, "the game is as it was (its version too)");
  assert.equal(await player.locator("#banner").isVisible(), false);
  await clickMove(player, "e3", "e4"); // and the player plays on
  await movesShown(player, 1);
  await s.finish();
});

test("another origin cannot take back moves against the engine: form, fetch and WebSocket are refused, the moves stay", async (t) => {
  const s = await session(t);
  const site = await attackerSite(t);
  const player = await s.page("player");
  const id = await createGame(player, s.url, { game: "xiangqi", opponent: "engine", level: 0 });
  await clickMove(player, "h3", "e3");
  const before = await settled(player, 2);
  assert.equal(before.ply, 2);
  const takeback = `${s.url}/api/games/${id}/takeback`;
  const answered = (page) => page.waitForResponse((r) => r.url() === takeback);

  let attack = await attackerTab(s, player, "attacker (fetch)");
  let response = answered(attack);
  await attack.goto(site.serve(pages.fetch(takeback)));
  await assertAnswer(attack, await response, { status: 403, origin: site.origin, id });
  assert.equal(await attack.evaluate(() => window.attack), "answered (opaque)");

  attack = await attackerTab(s, player, "attacker (form)");
  response = answered(attack);
  await attack.goto(site.serve(pages.form(takeback)));
  await assertAnswer(attack, await response, { status: 403, origin: site.origin, id });
  await refusalShown(attack, takeback);

  attack = await openAttack(s, player, site.serve(pages.socket(s.url, id, { type: "takeback" })));
  assert.deepEqual(await attack.evaluate(() => window.attack), ["error", "close 1006"]);

  const after = await state(player);
  assert.deepEqual(after, before, "the game is as it was (its version too)");
  assert.equal(after.moves.length, 2);
  await movesShown(player, 2);
  await s.finish();
});

test("another origin cannot frame the game page (frame-ancestors 'none', X-Frame-Options: DENY)", async (t) => {
  const s = await session(t);
  const site = await attackerSite(t);
  const player = await s.page("player");
  const id = await createGame(player, s.url, { game: "xiangqi", opponent: "engine", level: 0 });
  await myMove(player);
  const game = `${s.url}/g/${id}`;
  // One frame of the attacker's own origin (which loads: framing works on this site) beside
  // one of the game.
  const own = site.serve(`<p id="own">a page of the site itself</p>`);
  const attack = await attackerTab(s, player);
  const gameAnswer = attack.waitForResponse((r) => r.url() === game);
  await attack.goto(site.serve(`<iframe id="own" src="${own}" width="300" height="100"></iframe>
    <iframe id="game" src="${game}" width="900" height="700"></iframe>`));
  const answer = await gameAnswer;
  assert.equal(answer.status(), 200, "the server answered the frame's request");
  assert.equal(answer.headers()["x-frame-options"], "DENY");
  assert.match(answer.headers()["content-security-policy"], /frame-ancestors 'none'/);

  const frameOf = async (selector) => (await attack.locator(selector).elementHandle()).contentFrame();
  const ownFrame = await frameOf("iframe#own");
  await ownFrame.locator("#own").waitFor();
  const gameFrame = await frameOf("iframe#game");
  await eventually(
    () => attack.console.some((line) => /frame-ancestors 'none'/.test(line)),
    () => `the browser says why it refused the frame: ${attack.console.join(" | ")}`,
  );
  await gameFrame.waitForLoadState("load");
  assert.ok(!gameFrame.url().startsWith(s.url), `the game frame did not load the game: ${gameFrame.url()}`);
  assert.equal(await gameFrame.locator("#board").count(), 0, "no board in the frame");
  await shot(attack, "h-3-foreign-frame-refused");
  await s.finish();
});

/** A free port of 127.0.0.1 (to know a server's origin before it starts). */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test("the same attack pages succeed from an origin named by --allowed-origin (so the refusals above are the origin check's)", async (t) => {
  const s = await world(t);
  const site = await attackerSite(t);
  const port = await freePort();
  const own = `http://127.0.0.1:${port}`;
  const server = await s.server({ addr: `127.0.0.1:${port}`, args: ["--allowed-origin", own, "--allowed-origin", site.origin] });
  assert.equal(server.url, own);
  const player = await s.page("player");

  // A resignation by the form.
  let id = await createGame(player, own, { game: "xiongqi", opponent: "friend" });
  await myMove(player);
  const resign = `${own}/api/games/${id}/resign`;
  let attack = await attackerTab(s, player, "attacker (form)");
  let response = attack.waitForResponse((r) => r.url() === resign);
  await attack.goto(site.serve(pages.form(resign)));
  await assertAnswer(attack, await response, { status: 200, origin: site.origin, id });
  await player.locator("#banner").waitFor();
  assert.equal(await player.textContent("#banner"), "Game over: North wins by resignation");

  // A move through the WebSocket, seen live by the player's page.
  id = await createGame(player, own, { game: "xiongqi", opponent: "friend" });
  await myMove(player);
  attack = await openAttack(s, player, site.serve(pages.socket(own, id, { type: "move", move: "e3e4", ply: 0 })));
  const events = await attack.evaluate(() => window.attack);
  assert.deepEqual(events.slice(0, 3), ["open", "state", "ack move"], events.join(", "));
  assert.deepEqual(await movesShown(player, 1), ["e3-e4"]);

  // A take-back by fetch.
  id = await createGame(player, own, { game: "xiangqi", opponent: "engine", level: 0 });
  await clickMove(player, "h3", "e3");
  await settled(player, 2);
  const takeback = `${own}/api/games/${id}/takeback`;
  attack = await attackerTab(s, player, "attacker (fetch)");
  response = attack.waitForResponse((r) => r.url() === takeback);
  await attack.goto(site.serve(pages.fetch(takeback)));
  await assertAnswer(attack, await response, { status: 200, origin: site.origin, id });
  await movesShown(player, 0);
  assert.equal((await state(player)).ply, 0);
  await s.finish();
});
