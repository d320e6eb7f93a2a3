// The games the server offers (`GET /api/kinds`): the native ones, and the games read from
// rule files it was started with (`chuhe serve --rules DIR`), with their boards and pieces.
// Asked once per page; without an answer the page offers the native games only.

import { api } from "./api";

/** A piece of a game read from rule files: its letter on the board and its name. */
export interface KindPiece {
  letter: string;
  name: string;
  royal: boolean;
  /** The glyphs of the first and second side's piece, if the manifest gives them. */
  chinese: [string, string] | null;
}

/** A game the server offers. */
export interface Kind {
  name: string;
  native: boolean;
  title: string | null;
  files: number;
  ranks: number;
  pieces: KindPiece[];
  promotes: boolean;
  rated: boolean;
}

let offered: Kind[] = [];

/** Asks the server for its games (once). */
export async function loadKinds(): Promise<void> {
  try {
    offered = (await api<{ kinds: Kind[] }>("GET", "/api/kinds")).kinds;
  } catch {
    offered = [];
  }
}

/** The games read from rule files, in the order the server gave them. */
export function rulesKinds(): Kind[] {
  return offered.filter((k) => !k.native);
}

/** A game by name, if the server offers it. */
export function kindOf(name: string): Kind | undefined {
  return offered.find((k) => k.name === name);
}

/** Is `name` a game read from rule files? */
export function isRules(name: string): boolean {
  const kind = kindOf(name);
  return !!kind && !kind.native;
}

/** Does a game read from rule files give its pieces Chinese glyphs (so that the board's
 * glyph switch changes anything)? The native games do. */
export function hasGlyphs(name: string): boolean {
  const kind = kindOf(name);
  return !kind || kind.native || kind.pieces.some((p) => p.chinese);
}

/** The name of the piece whose capture ends a game read from rule files ("lord"), if any. */
export function royalName(name: string): string | null {
  const kind = kindOf(name);
  if (!kind || kind.native) return null;
  return kind.pieces.find((p) => p.royal)?.name ?? null;
}

/** May a game of `name` be rated? (Games read from rule files are casual only.) */
export function ratedAllowed(name: string): boolean {
  return kindOf(name)?.rated ?? true;
}

/** The name of the piece a promotion move (`b6b7t`) chooses, in a game read from rule
 * files: "T (tiger)"; null for the native games. */
export function promotionLabel(game: string, uci: string): string | null {
  const kind = kindOf(game);
  const letter = uci.match(/[a-z]$/)?.[0]?.toUpperCase();
  if (!kind || kind.native || !letter) return null;
  const piece = kind.pieces.find((p) => p.letter === letter);
  return piece ? `${letter} (${piece.name})` : letter;
}
