// The server sends codes with parameters (a result's status, winner and reason; an error's
// code); here they become words in the page's language.

import { ApiFailure } from "./api";
import { has, Key, t } from "./i18n";
import { royalName } from "./kinds";

export type Side = "first" | "second";

/** A result as the server sends it. */
export interface Result {
  status: string;
  winner: "first" | "second" | "none";
  reason?: string | null;
  text?: string;
}

/** A time control as the server sends it. */
export interface Clock {
  control: string;
  initial_ms: number;
  increment_ms: number;
}

export const other = (side: Side): Side => (side === "first" ? "second" : "first");

/** A side's name in a game: Red and Black in Xiangqi, South and North in Xiongqi. */
export function sideName(game: string, side: Side): string {
  if (game === "xiongqi") return t(side === "first" ? "side.south" : "side.north");
  return t(side === "first" ? "side.red" : "side.black");
}

/** A game's kind in words (a game read from rule files by its own name). */
export function gameName(game: string): string {
  const key = `game.${game}`;
  return has(key) ? t(key) : game.charAt(0).toUpperCase() + game.slice(1);
}

/** A result in words, as players say it: "Black wins by resignation". */
export function resultText(game: string, result: Result, turn?: Side): string {
  if (result.status === "aborted") {
    if (result.reason === "no_first_move" && turn) return t("result.aborted_late", { side: sideName(game, turn) });
    return t("result.aborted");
  }
  if (result.winner === "none") {
    const key = `draw.${result.status}`;
    return t(has(key) ? (key as Key) : "draw.other");
  }
  const winner = sideName(game, result.winner);
  const loser = sideName(game, other(result.winner));
  let key = `result.${result.status}`;
  const royal = royalName(game);
  if (result.status === "mareking" && royal) return t("result.mareking_rules", { winner, loser, piece: royal });
  if (result.reason === "abandoned") key = "result.abandoned";
  else if (result.reason === "perpetual check") key = "result.perpetual_check";
  else if (result.reason === "perpetual chase") key = "result.perpetual_chase";
  return t(has(key) ? (key as Key) : "result.win", { winner, loser });
}

/** A short score: 1–0, 0–1, ½–½. */
export function score(result: Result | null): string {
  if (!result) return "*";
  if (result.status === "aborted") return "–";
  if (result.winner === "first") return "1–0";
  if (result.winner === "second") return "0–1";
  return t("result.draw_short");
}

/** A time control as players write it: minutes + seconds added per move ("3+2",
 * "½+0"), or "No clock". */
export function clockText(clock: Clock | null | undefined): string {
  if (!clock) return t("clock.none");
  const minutes = clock.initial_ms / 60000;
  const base = minutes === 0.5 ? "½" : minutes === 0.25 ? "¼" : String(Math.round(minutes * 100) / 100);
  return `${base}+${Math.round(clock.increment_ms / 100) / 10}`;
}

/** A problem of a refused position as the server sends it (`bad_position`'s `problems`). */
interface Problem {
  code: string;
  location: string;
  params: Record<string, string>;
  message: string;
}

/** A refused position's problem in words: where (a square, a hand), then what. */
function problemText(game: string, p: Problem): string {
  const key = `setup.${p.code}`;
  if (!has(key)) return p.message;
  const params: Record<string, string> = { ...p.params };
  for (const name of ["side", "other"]) {
    if (params[name] === "first" || params[name] === "second") params[name] = sideName(game, params[name] as Side);
  }
  for (const name of ["kind", "mine"]) {
    if (params[name] && has(`setup.kind.${params[name]}`)) params[name] = t(`setup.kind.${params[name]}` as Key);
  }
  const what = t(key as Key, params);
  const hand = /^(first|second) hand$/.exec(p.location);
  if (hand) return `${t("setup.hand", { side: sideName(game, hand[1] as Side) })}: ${what}`;
  if (/^[a-l]\d+$/.test(p.location)) return `${p.location}: ${what}`;
  return what;
}

/** The words of a refusal from the server: its code (and the reason within it; a refused
 * position's problems one by one), else the server's own message. */
export function errorText(e: unknown): string {
  if (!(e instanceof ApiFailure)) return String((e as Error)?.message ?? e);
  const params = e.params as Record<string, unknown>;
  const problems = params.problems as Problem[] | undefined;
  if (e.code === "bad_position" && problems?.length) {
    const game = String(params.game ?? "");
    return t("error.bad_position", { message: problems.map((p) => problemText(game, p)).join("; ") });
  }
  const reason = params.reason ? `error.${e.code}.${params.reason}` : "";
  if (reason && has(reason)) return t(reason as Key, params);
  const key = `error.${e.code}`;
  if (has(key)) return t(key as Key, params);
  return e.message;
}

/** A date and time in the page's language. */
export function when(ms: number): string {
  return new Date(ms).toLocaleString(document.documentElement.lang || undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

/** A date in the page's language. */
export function day(ms: number): string {
  return new Date(ms).toLocaleDateString(document.documentElement.lang || undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
  });
}
