// The archive: every game, filtered by player, opponent, game, result, dates, time control,
// rated and kind, a page at a time; each game a card that fits a phone's width.

import { api } from "./api";
import { $, fill, h, link } from "./dom";
import { Key, t } from "./i18n";
import { rulesKinds } from "./kinds";
import { profileUrl } from "./session";
import { Clock, clockText, day, errorText, gameName, Result, resultText, score } from "./words";

export interface Summary {
  id: string;
  game: string;
  opponent: "engine" | "friend" | "record";
  engine: { level: number; side: "first" | "second" } | null;
  players: { name: string | null; guest: boolean; rating: number | null; provisional: boolean; diff: number | null }[];
  rated: boolean;
  clock: Clock | null;
  plies: number;
  result: Result | null;
  created_ms: number;
  updated_ms: number;
}

const PAGE = 20;

const FILTERS = ["player", "vs", "game", "result", "since", "until", "tc", "rated", "opponent"] as const;

/** One seat of a game in a list: the player (a link), the engine, or an open seat. */
function seat(g: Summary, i: number): Node {
  const p = g.players[i];
  if (g.engine && (g.engine.side === "first") === (i === 0)) return document.createTextNode(t("engine.name", { level: g.engine.level }));
  if (!p.name) return document.createTextNode("?");
  const rating = p.rating !== null ? ` (${p.rating}${p.provisional ? "?" : ""}${p.diff !== null ? `, ${p.diff >= 0 ? "+" : ""}${p.diff}` : ""})` : "";
  const span = h("span", { className: "seat" }, p.guest ? p.name : link(profileUrl(p.name), p.name), rating);
  return span;
}

/** A game as a card: its players, result, kind, clock, mode, moves and date. */
export function gameCard(g: Summary): HTMLElement {
  const result = g.result ? resultText(g.game, g.result) : t("result.in_play");
  const kind = g.opponent === "record" ? t("archive.record") : t(g.rated ? "mode.rated" : "mode.casual");
  return h(
    "li",
    { className: "game-card", "data-game": g.id },
    h("div", { className: "card-players" }, seat(g, 0), h("span", { className: "score" }, ` ${score(g.result)} `), seat(g, 1)),
    h("div", { className: "card-result" }, result),
    h(
      "div",
      { className: "card-meta" },
      [gameName(g.game), clockText(g.clock), kind, t("archive.moves", { n: g.plies }), day(g.created_ms)].join(" · "),
      " ",
      link(`/g/${g.id}`, t("archive.open")),
    ),
  );
}

function select(name: string, options: [string, Key][]): HTMLSelectElement {
  return h("select", { name }, ...options.map(([v, k]) => h("option", { value: v }, t(k))));
}

/** Builds the archive in `main`, with the filters of the address's query. */
export function setupArchive(main: HTMLElement): void {
  const query = new URLSearchParams(location.search);
  const form = h(
    "form",
    { id: "archive-filters", className: "filters" },
    h("label", {}, t("archive.player"), h("input", { type: "text", name: "player", autocomplete: "off" })),
    h("label", {}, t("archive.vs"), h("input", { type: "text", name: "vs", autocomplete: "off" })),
    h(
      "label",
      {},
      t("form.game"),
      h("select", { name: "game" }, h("option", { value: "" }, t("archive.any")), ...["xiangqi", "xiongqi", "xiangqi-capture", ...rulesKinds().map((k) => k.name)].map((g) => h("option", { value: g }, gameName(g)))),
    ),
    h(
      "label",
      {},
      t("archive.result"),
      select("result", [
        ["", "archive.any"],
        ["finished", "archive.finished"],
        ["ongoing", "archive.ongoing"],
        ["aborted", "archive.aborted"],
        ["draw", "archive.draws"],
        ["win", "archive.wins"],
        ["loss", "archive.losses"],
      ]),
    ),
    h("label", {}, t("archive.since"), h("input", { type: "date", name: "since" })),
    h("label", {}, t("archive.until"), h("input", { type: "date", name: "until" })),
    h("label", {}, t("archive.tc"), h("input", { type: "text", name: "tc", placeholder: "180+2", autocomplete: "off" })),
    h("label", {}, t("archive.rated"), select("rated", [["", "archive.any"], ["true", "archive.yes"], ["false", "archive.no"]])),
    h("label", {}, t("archive.opponent"), select("opponent", [["", "archive.any"], ["friend", "archive.friend"], ["engine", "archive.engine"], ["record", "archive.record"]])),
    h("button", { type: "submit" }, t("archive.filter")),
  );
  for (const name of FILTERS) {
    const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
    if (field && query.get(name)) field.value = query.get(name)!;
  }
  fill(
    main,
    h(
      "section",
      { id: "archive" },
      h("h1", {}, t("archive.title")),
      form,
      h("p", { id: "archive-count", className: "hint" }),
      h("ul", { id: "games", className: "cards" }),
      h("p", { className: "pager" }, h("button", { id: "prev-games" }, t("archive.prev")), h("button", { id: "next-games" }, t("archive.next"))),
      h("p", { className: "error", id: "archive-error", role: "alert" }),
    ),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (String(v).trim()) next.set(k, String(v).trim());
    history.pushState(null, "", `/archive${next.toString() ? "?" + next : ""}`);
    load(next, 0);
  });
  const filters = new URLSearchParams();
  for (const name of FILTERS) if (query.get(name)) filters.set(name, query.get(name)!);
  load(filters, Number(query.get("offset")) || 0);
}

async function load(filters: URLSearchParams, offset: number): Promise<void> {
  const params = new URLSearchParams(filters);
  params.set("limit", String(PAGE));
  params.set("offset", String(offset));
  $("#archive-error").textContent = "";
  let data: { games: Summary[]; total: number };
  try {
    data = await api("GET", `/api/games?${params}`);
  } catch (e) {
    $("#archive-error").textContent = errorText(e);
    return;
  }
  const list = $("#games");
  list.textContent = "";
  for (const g of data.games) list.append(gameCard(g));
  $("#archive-count").textContent = data.total ? t("archive.count", { n: data.total }) : t("archive.none");
  const prev = $<HTMLButtonElement>("#prev-games");
  const next = $<HTMLButtonElement>("#next-games");
  prev.hidden = offset === 0;
  next.hidden = offset + data.games.length >= data.total;
  prev.onclick = () => load(filters, Math.max(0, offset - PAGE));
  next.onclick = () => load(filters, offset + PAGE);
}
