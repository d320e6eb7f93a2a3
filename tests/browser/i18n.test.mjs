// The site in its four languages: chosen from the browser's Accept-Language (the page's
// `lang` says which), switched with the menu (kept in a cookie), and on each main screen no
// English sentence of the page left in another language (the lobby, a game, the archive,
// sign-up, the analysis board, the board editor); the move list in the Chinese notation on
// the Chinese pages. Screenshots of each language at phone width.

import { test } from "node:test";
import assert from "node:assert/strict";
import { clickMove, createGame, movesShown, myMove, session, shot } from "./harness.mjs";

/** The English strings of the page that a page in `lang` must not show: every string of
 * two words or more that the language translates differently, parameters left out. */
async function untranslated(page, lang) {
  return page.evaluate((lang) => {
    const { en, [lang]: other } = window.chuheCatalogues;
    const text = document.body.innerText;
    const left = [];
    for (const [key, english] of Object.entries(en)) {
      const plain = english.split(/\{\w+\}/).map((s) => s.trim()).filter((s) => s.split(/\s+/).length >= 2);
      if (english === other[key]) continue;
      for (const part of plain) if (text.includes(part) && !other[key].includes(part)) left.push(`${key}: "${part}"`);
    }
    return left;
  }, lang);
}

/** The board editor's verdict with Red's general taken off, in each language. */
const REFUSED = {
  "zh-Hans": "规则不接受此局面：红方没有将帅",
  "zh-Hant": "規則不接受此局面：紅方沒有將帥",
  vi: "Luật không chấp nhận thế cờ này: bên Đỏ không có tướng",
};

const LANGS = [
  ["zh-CN,zh;q=0.9,en;q=0.5", "zh-Hans", "快速配对", "红方"],
  ["zh-TW,zh;q=0.9", "zh-Hant", "快速配對", "紅方"],
  ["vi-VN,vi;q=0.9,en;q=0.3", "vi", "Ghép nhanh", "Đỏ"],
];

test("the four languages: chosen from Accept-Language, switched by the menu, no English left on the main screens", async (t) => {
  const s = await session(t);
  for (const [accept, lang, quick, red] of LANGS) {
    const page = await s.page(`player (${lang})`, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      extraHTTPHeaders: { "Accept-Language": accept },
    });
    // The board editor asks the server about a position it refuses: answered 400.
    page.allowed.push(/status of 400 \(Bad Request\)/);
    await page.goto(s.url + "/");
    assert.equal(await page.getAttribute("html", "lang"), lang);
    await page.locator("#quick h2").waitFor();
    assert.equal(await page.textContent("#quick h2"), quick);
    assert.deepEqual(await untranslated(page, lang), [], `${lang}: the lobby`);
    await shot(page, `l-${lang}-lobby`);
    // A game against the engine: its screen, and the move list in the Chinese notation on
    // the Chinese pages.
    await createGame(page, s.url, { game: "xiangqi", opponent: "engine", level: 0 });
    await myMove(page);
    assert.match(await page.textContent("#status"), new RegExp(red));
    await clickMove(page, "h3", "e3");
    const moves = await movesShown(page, 2);
    if (lang.startsWith("zh")) assert.equal(moves[0], "炮二平五");
    else assert.equal(moves[0], "h3-e3 (C2=5)");
    assert.deepEqual(await untranslated(page, lang), [], `${lang}: a game`);
    await shot(page, `l-${lang}-game`);
    await page.goto(s.url + "/archive");
    await page.locator("#games li.game-card").first().waitFor();
    assert.deepEqual(await untranslated(page, lang), [], `${lang}: the archive`);
    await page.goto(s.url + "/signup");
    await page.locator("#signup-form").waitFor();
    assert.deepEqual(await untranslated(page, lang), [], `${lang}: sign-up`);
    // The analysis board with the engine's lines, and the board editor with a refusal.
    await page.goto(s.url + "/analysis?game=xiangqi&moves=h3e3");
    await page.locator("#lines li.line").first().waitFor({ timeout: 20_000 });
    if (lang.startsWith("zh")) assert.match(await page.textContent("#tree"), /炮二平五/);
    assert.deepEqual(await untranslated(page, lang), [], `${lang}: analysis`);
    await shot(page, `l-${lang}-analysis`);
    await page.goto(s.url + "/editor?game=xiangqi");
    await page.waitForFunction(() => document.querySelector("#editor-verdict")?.className === "ok");
    await page.click("#editor-eraser");
    await page.locator('#board rect.square[data-square="e1"]').click();
    await page.waitForFunction(() => document.querySelector("#editor-verdict")?.className === "error");
    assert.deepEqual(await untranslated(page, lang), [], `${lang}: the board editor`);
    // The rules core's reason too, worded from its code.
    assert.equal(await page.textContent("#editor-verdict"), REFUSED[lang]);
    await shot(page, `l-${lang}-editor`);
  }
  // The menu switches the language, and the choice is kept over the browser's.
  const page = await s.page("switcher", { extraHTTPHeaders: { "Accept-Language": "en-US" } });
  await page.goto(s.url + "/");
  assert.equal(await page.getAttribute("html", "lang"), "en");
  await page.selectOption("#language", "vi");
  await page.waitForFunction(() => document.documentElement.lang === "vi");
  await page.locator("#quick h2").waitFor();
  assert.equal(await page.textContent("#quick h2"), "Ghép nhanh");
  await page.goto(s.url + "/archive");
  assert.equal(await page.getAttribute("html", "lang"), "vi");
  await s.finish();
});
