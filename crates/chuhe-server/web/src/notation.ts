// How moves are written on the page: coordinates (a capture with x), coordinates with WXF,
// or the Chinese notation (Xiangqi: 炮二平五, in traditional characters on a 繁體中文 page).
// The Chinese pages use the Chinese notation unless the player chose; the choice is kept.

import { h } from "./dom";
import { Key, language, t } from "./i18n";

export type Notation = "wxf" | "coords" | "chinese";

const NOTATIONS: Notation[] = ["wxf", "coords", "chinese"];

/** The Chinese notation's characters in traditional forms. */
const TRADITIONAL: Record<string, string> = { 车: "車", 马: "馬", 帅: "帥", 将: "將", 进: "進", 后: "後" };

/** The notation the player chose, or the page's language's. */
export function chosenNotation(): Notation {
  const kept = localStorage.getItem("chuhe.notation") as Notation | null;
  if (kept && NOTATIONS.includes(kept)) return kept;
  return language().startsWith("zh") ? "chinese" : "wxf";
}

/** The notation menu (`#notation`); `changed` hears the player's choice. */
export function notationSelect(changed: (n: Notation) => void): HTMLElement {
  const select = h("select", { id: "notation" }, ...NOTATIONS.map((n) => h("option", { value: n }, t(`notation.${n}` as Key))));
  select.value = chosenNotation();
  select.addEventListener("change", () => {
    localStorage.setItem("chuhe.notation", select.value);
    changed(select.value as Notation);
  });
  return h("label", { className: "notation-choice" }, t("play.notation"), " ", select);
}

/** A PMN move as players write coordinates: the capture sign `+` becomes `x` (as the
 * server's `coords`). */
export function coordinates(pmn: string): string {
  return pmn.replace(/^([a-z]+\d+)\+/, "$1x");
}

/** A move in the notation chosen, from its texts in every notation (`pmn`, `wxf`,
 * `chinese`…) and its coordinates. A game without the notation shows coordinates. */
export function moveText(texts: Record<string, string>, coords: string, notation: Notation): string {
  if (notation === "chinese" && texts.chinese) {
    const text = texts.chinese;
    return language() === "zh-Hant" ? [...text].map((c) => TRADITIONAL[c] ?? c).join("") : text;
  }
  if (notation === "coords") return coords;
  return coords + (texts.wxf ? ` (${texts.wxf})` : "");
}

/** A line (a search's moves, in every notation) in the notation chosen: WXF alone where the
 * game has it (a line reads shorter), else coordinates. */
export function lineText(pv: Record<string, string[]>, notation: Notation): string[] {
  const pmn = pv.pmn || pv.uci || [];
  return pmn.map((m, i) => {
    if (notation === "chinese" && pv.chinese) return moveText({ chinese: pv.chinese[i] }, coordinates(m), notation);
    if (notation === "wxf" && pv.wxf) return pv.wxf[i];
    return coordinates(m);
  });
}
