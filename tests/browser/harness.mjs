// What the browser tests share: Chromium (one per test file), `chuhe serve` processes on free
// ports, a test's world (its servers, browser contexts and the errors their pages log), and
// helpers that read and play the game page.
//
// Environment: CHUHE_BIN (the chuhe binary, default target/debug/chuhe of the repository),
// CHROMIUM (default /usr/bin/chromium).

import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const BIN = process.env.CHUHE_BIN ? path.resolve(process.env.CHUHE_BIN) : path.join(ROOT, "target/debug/chuhe");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARTIFACTS = path.join(HERE, "artifacts");

let browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
});

// ------------------------------------------------------------------ the server

/**
 * Starts `chuhe serve` on `addr` (default: a free loopback port) over `db` (default: a
 * temporary SQLite file), with `args` added.
 */
export async function startServer({ args = [], db = null, addr = "127.0.0.1:0" } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "chuhe-browser-"));
  const proc = spawn(
    BIN,
    ["serve", "--addr", addr, "--db", db ?? path.join(dir, "games.sqlite3"), "--engine-movetime", "150", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`chuhe serve printed no address in 20 s: ${out}${stderr}`)), 20_000);
    proc.once("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${BIN}: ${e.message} (build it: cargo build -p chuhe-cli, or set CHUHE_BIN)`));
    });
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`chuhe serve exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    url,
    stderr: () => stderr,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A test's world: its servers, its browser contexts and the errors their pages log. `finish`
 * closes the pages, stops the servers and fails on any error logged or any line a server
 * wrote to stderr; `t.after` cleans up when the test failed before that.
 */
export async function world(t) {
  const servers = [];
  const contexts = [];
  const errors = [];
  let done = false;
  /** Watches a page: its console errors (but those of `page.allowed`) fail the test. */
  const watch = (page, name) => {
    page.allowed = []; // console errors this test expects (regexps)
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const text = msg.text();
      if (page.allowed.some((re) => re.test(text))) return;
      errors.push(`${name}: console error: ${text} (at ${msg.location().url})`);
    });
    page.on("pageerror", (e) => errors.push(`${name}: uncaught: ${e.message}`));
    page.on("dialog", (d) => d.accept());
    page.setDefaultTimeout(15_000);
    return page;
  };
  const w = {
    errors,
    /** Starts a server (see `startServer`); its address is `.url`. */
    async server(options = {}) {
      const server = await startServer(options);
      servers.push(server);
      return server;
    },
    /** A new browser context (its own cookies: one person) and a page in it. */
    async page(name, options = {}) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, ...options });
      contexts.push(context);
      return watch(await context.newPage(), name);
    },
    /** Another page in the context of `page` (the same person, the same cookies). */
    async pageBeside(page, name) {
      return watch(await page.context().newPage(), name);
    },
    async close() {
      for (const c of contexts.splice(0)) await c.close().catch(() => {});
      for (const s of servers) await s.stop();
    },
    async finish() {
      done = true;
      await w.close();
      assert.deepEqual(errors, [], "the pages logged errors");
      for (const s of servers) assert.equal(s.stderr(), "", `chuhe serve (${s.url}) wrote to stderr`);
    },
  };
  t.after(async () => {
    if (!done) {
      for (const s of servers) if (s.stderr()) t.diagnostic(`chuhe serve's stderr (${s.url}): ${s.stderr()}`);
      await w.close();
    }
  });
  return w;
}

/** A world with one server on a fresh SQLite file, started with `serverArgs`; its address is `.url`. */
export async function session(t, serverArgs = []) {
  const w = await world(t);
  w.url = (await w.server({ args: serverArgs })).url;
  return w;
}

// ------------------------------------------------------------------ the page

export async function shot(page, name, options = {}) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true, ...options });
}

export const square = (page, name) => page.locator(`#board rect.square[data-square="${name}"]`);

/** Waits until the board shows the latest state (the page marks it busy while it loads). */
export async function boardDrawn(page) {
  await page.locator('#board[aria-busy="false"] svg').waitFor();
}

/** Waits until the viewer may move: the board is drawn with its movable pieces marked. */
export async function myMove(page) {
  await page.locator('#board[aria-busy="false"] rect.square.movable').first().waitFor();
}

/**
 * Waits until the move list has `n` moves (at least `n`, when `atLeast`: an engine may answer
 * before a count is seen); their texts.
 */
export async function movesShown(page, n, { atLeast = false } = {}) {
  try {
    await page.waitForFunction(
      ([n, atLeast]) => {
        const shown = document.querySelectorAll("#moves button.move").length;
        return atLeast ? shown >= n : shown === n;
      },
      [n, atLeast],
    );
  } catch (e) {
    const seen = await page.evaluate(() => ({
      moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.textContent),
      status: document.querySelector("#status")?.textContent,
      error: document.querySelector("#play-error")?.textContent,
    }));
    throw new Error(`${n} moves not shown; the page shows ${JSON.stringify(seen)}: ${e.message}`);
  }
  return page.locator("#moves button.move").allTextContents();
}

/** The game's state, fetched by the page itself (with its cookie). */
export async function state(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split("/").pop();
    return (await fetch(`/api/games/${id}`)).json();
  });
}

/** Creates a game through the API from the page (so that its cookie is set) and opens it. */
export async function createGame(page, url, body) {
  if (!page.url().startsWith(url)) await page.goto(url + "/");
  const created = await page.evaluate(async (body) => {
    const r = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return r.json();
  }, body);
  assert.ok(created.game, `the game was not created: ${JSON.stringify(created)}`);
  await page.goto(`${url}/g/${created.game.id}`);
  return created.game.id;
}

/** Plays a move by clicking its origin and its destination; checks the highlights between. */
export async function clickMove(page, from, to) {
  await myMove(page);
  await square(page, from).click();
  await page.locator(`#board rect.square.selected[data-square="${from}"]`).waitFor();
  const marked = await destinations(page);
  const legal = (await state(page)).legal.filter((m) => m.from === from).map((m) => m.to);
  assert.deepEqual(marked, [...new Set(legal)].sort(), `the destinations marked for ${from}`);
  await square(page, to).click();
}

/** The destinations marked for the piece picked: dots on empty points, rings round pieces. */
export async function destinations(page) {
  return page.$$eval("#board .move-dot, #board .capture-ring", (cs) => cs.map((c) => c.dataset.square).sort());
}

/** The first of `preferred` (coordinates) that is legal now, else the first legal move. */
export async function choose(page, ...preferred) {
  const legal = (await state(page)).legal;
  assert.ok(legal.length, "there are legal moves");
  return preferred.map((u) => legal.find((m) => m.uci === u)).find(Boolean) || legal[0];
}

/** The glyph drawn on `name` (the text whose anchor lies in the square), or null. */
export async function glyphOn(page, name) {
  await boardDrawn(page);
  return page.evaluate((name) => {
    const r = document.querySelector(`#board rect.square[data-square="${name}"]`);
    const [x, y, w, h] = ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a)));
    for (const t of document.querySelectorAll("#board g.piece text")) {
      const tx = Number(t.getAttribute("x")), ty = Number(t.getAttribute("y"));
      if (tx > x && tx < x + w && ty > y && ty < y + h) return t.textContent;
    }
    return null;
  }, name);
}

/** The squares of the last-move mark (origin and destination, in any order). */
export async function lastMoveMarked(page, from, to) {
  await boardDrawn(page);
  const centres = await page.$$eval("#board rect.last-move", (rs) =>
    rs.map((r) => [Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2, Number(r.getAttribute("y")) + Number(r.getAttribute("height")) / 2]),
  );
  const squares = await page.$$eval("#board rect.square", (rs) =>
    rs.map((r) => ({ name: r.dataset.square, x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")), w: Number(r.getAttribute("width")) })),
  );
  const at = ([cx, cy]) => squares.find((s) => cx > s.x && cx < s.x + s.w && cy > s.y && cy < s.y + s.w)?.name;
  assert.deepEqual(centres.map(at).sort(), [from, to].sort(), "the last move marked");
}
