// The home page: quick pairing, the lobby's seeks (live), challenges, a game against the
// engine or a friend, the games being played, and importing a record.

import { api, idempotencyKey, socketUrl } from "./api";
import { $, fill, h, link } from "./dom";
import { t } from "./i18n";
import { ratedAllowed, rulesKinds } from "./kinds";
import { current, profileUrl, refresh as refreshMe } from "./session";
import { Clock, clockText, errorText, gameName } from "./words";


interface SeekPlayer {
  name: string;
  guest: boolean;
  rating: number | null;
  provisional: boolean;
}

interface Seek {
  id: string;
  player: SeekPlayer;
  game: string;
  clock: Clock | null;
  rated: boolean;
  color: string;
  /** False for a seek of a game this server does not serve (made on another server). */
  served?: boolean;
}

interface Challenge {
  id: string;
  from: SeekPlayer;
  to: SeekPlayer;
  incoming: boolean;
  game: string;
  clock: Clock | null;
  rated: boolean;
  color: string;
  /** False for a game this server does not serve (the challenge was made on another). */
  served?: boolean;
}

interface Summary {
  id: string;
  game: string;
  players: { name: string | null; rating: number | null; provisional: boolean }[];
  clock: Clock | null;
  rated: boolean;
  plies: number;
  spectators: number;
}

const QUICK = ["1+0", "3+0", "3+2", "5+3", "10+0", "10+5", "15+10", "30+0"];

const lobby = {
  socket: null as WebSocket | null,
  socketId: null as string | null,
  seeks: [] as Seek[],
  /** The game this page is already going to, once a seek or challenge became one. */
  entering: null as string | null,
};

/**
 * Goes to game `id`, once: an accepted seek arrives both as the answer to the accept and
 * on the lobby socket, and a second navigation would cancel the first one.
 */
function enterGame(id: string): void {
  if (lobby.entering === id) return;
  lobby.entering = id;
  location.assign(`/g/${id}`);
}

function section(id: string, title: string, ...children: (Node | null)[]): HTMLElement {
  return h("section", { id, className: "panel" }, h("h2", {}, title), ...children);
}

function radios(name: string, options: [string, string][], checked: string): HTMLElement[] {
  return options.map(([value, label]) =>
    h("label", {}, h("input", { type: "radio", name, value, checked: value === checked }), " ", label),
  );
}

/** The games and their names (words of the page's language, so made when asked for). */
const games = (): [string, string][] => [
  ["xiangqi", t("game.xiangqi.long")],
  ["xiongqi", t("game.xiongqi.long")],
  ["xiangqi-capture", t("game.xiangqi-capture.long")],
  // The games of the server's rule files, by their manifests' titles.
  ...rulesKinds().map((k): [string, string] => [k.name, t("game.rules_long", { name: gameName(k.name), files: k.files, ranks: k.ranks })]),
];

/** A seek or challenge form's rated box follows its game: games read from rule files are
 * casual only. */
function casualForRules(form: HTMLFormElement, account: boolean): void {
  const game = form.querySelector<HTMLSelectElement>("select[name=game]")!;
  const rated = form.querySelector<HTMLInputElement>("input[name=rated]")!;
  game.addEventListener("change", () => {
    const allowed = ratedAllowed(game.value);
    rated.disabled = !account || !allowed;
    if (!allowed) rated.checked = false;
  });
}

function clockSelect(id: string): HTMLSelectElement {
  return h(
    "select",
    { id, name: "clock" },
    h("option", { value: "" }, t("clock.none")),
    ...["180+2", "300+3", "600+5", "1800+10"].map((c) => {
      const [base, inc] = c.split("+").map(Number);
      return h("option", { value: c }, `${base / 60} min + ${inc} s`);
    }),
  );
}

/** Builds the home page in `main`. */
export function setupLobby(main: HTMLElement): void {
  const me = current();
  const account = !!me.user && !me.user.guest;
  fill(
    main,
    h(
      "div",
      { className: "lobby-grid" },
      h(
        "div",
        { className: "lobby-main" },
        section(
          "quick",
          t("lobby.quick"),
          h("p", { className: "hint" }, t("lobby.quick_help")),
          h(
            "div",
            { className: "quick-grid" },
            ...QUICK.map((tc) => {
              const [min, inc] = tc.split("+").map(Number);
              const label = `${min}+${inc}`;
              return h("button", { className: "quick", "data-tc": tc, onclick: () => quickSeek(min * 60, inc) }, label);
            }),
          ),
          h("p", { className: "error", id: "quick-error", role: "alert" }),
        ),
        section(
          "seeks",
          t("lobby.seeks"),
          h(
            "table",
            { id: "seek-table", className: "list" },
            h(
              "thead",
              {},
              h("tr", {}, h("th", {}, t("lobby.player")), h("th", {}, t("lobby.rating")), h("th", {}, t("form.game")), h("th", {}, t("lobby.time")), h("th", {}, t("lobby.mode")), h("th")),
            ),
            h("tbody"),
          ),
          h("p", { id: "no-seeks", className: "hint" }, t("lobby.no_seeks")),
        ),
        section("home", t("lobby.engine_or_friend"), newGameForm()),
        section("playing", t("lobby.playing"), h("ul", { id: "playing-list", className: "plain" }), h("p", { id: "no-playing", className: "hint" }, t("lobby.no_playing"))),
      ),
      h(
        "div",
        { className: "lobby-side" },
        section(
          "create-seek",
          t("lobby.create"),
          h(
            "form",
            { id: "seek-form" },
            h("label", {}, t("form.game"), " ", h("select", { name: "game" }, ...games().map(([v, l]) => h("option", { value: v }, l)))),
            h("div", { className: "row" }, h("label", {}, t("form.minutes"), " ", h("input", { type: "number", name: "minutes", min: "0", max: "180", step: "any", value: "5" })), h("label", {}, t("form.increment"), " ", h("input", { type: "number", name: "increment", min: "0", max: "180", value: "3" }))),
            h("label", {}, h("input", { type: "checkbox", name: "rated", checked: account, disabled: !account }), " ", t("form.rated")),
            account ? null : h("p", { className: "hint" }, t("lobby.rated_needs_account")),
            h("fieldset", {}, h("legend", {}, t("form.side")), ...radios("color", [["random", t("color.random")], ["first", t("color.first")], ["second", t("color.second")]], "random")),
            h("button", { type: "submit" }, t("lobby.seek")),
            h("p", { className: "error", id: "seek-error", role: "alert" }),
          ),
        ),
        section("challenges", t("lobby.challenges"), h("ul", { id: "challenge-list", className: "plain" }), h(
          "form",
          { id: "challenge-form" },
          h("label", {}, t("lobby.challenge_name"), " ", h("input", { type: "text", name: "to", autocomplete: "off", required: true })),
          h("label", {}, t("form.game"), " ", h("select", { name: "game" }, ...games().map(([v, l]) => h("option", { value: v }, l)))),
          h("div", { className: "row" }, h("label", {}, t("form.minutes"), " ", h("input", { type: "number", name: "minutes", min: "0", max: "180", step: "any", value: "10" })), h("label", {}, t("form.increment"), " ", h("input", { type: "number", name: "increment", min: "0", max: "180", value: "5" }))),
          h("label", {}, h("input", { type: "checkbox", name: "rated", disabled: !account }), " ", t("form.rated")),
          h("button", { type: "submit" }, t("lobby.send_challenge")),
          h("p", { className: "error", id: "challenge-error", role: "alert" }),
        )),
        section(
          "import-section",
          t("lobby.import"),
          h("p", { className: "hint" }, t("lobby.import_help")),
          h(
            "form",
            { id: "import" },
            h("textarea", { id: "import-pcn", rows: "4", spellcheck: "false", placeholder: '[Event "…"] 1. Che3 …  |  {"setup": "…", "moves": […]}  |  FEN' }),
            h("label", {}, t("lobby.import_file"), " ", h("input", { type: "file", id: "import-file", accept: ".xqf,.XQF,.pgn,.pcn,.txt" })),
            h("button", { type: "submit" }, t("form.import")),
            h("p", { className: "error", id: "import-error", role: "alert" }),
          ),
        ),
      ),
    ),
  );
  wireNewGame();
  casualForRules($<HTMLFormElement>("#seek-form"), account);
  casualForRules($<HTMLFormElement>("#challenge-form"), account);
  $("#seek-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const minutes = Number(form.get("minutes"));
    seek({
      game: form.get("game"),
      clock: minutes > 0 ? { initial_s: minutes * 60, increment_s: Number(form.get("increment")) } : null,
      rated: form.get("rated") === "on",
      color: form.get("color"),
    }, "#seek-error");
  });
  $("#challenge-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const minutes = Number(form.get("minutes"));
    $("#challenge-error").textContent = "";
    try {
      await api("POST", "/api/challenges", {
        to: String(form.get("to")).trim(),
        game: form.get("game"),
        clock: minutes > 0 ? { initial_s: minutes * 60, increment_s: Number(form.get("increment")) } : null,
        rated: form.get("rated") === "on",
        color: "random",
      });
      (e.target as HTMLFormElement).reset();
      await refreshMe();
      await loadChallenges();
    } catch (err) {
      $("#challenge-error").textContent = errorText(err);
    }
  });
  $("#import").addEventListener("submit", importRecord);
  connectLobby();
  loadPlaying();
  loadChallenges();
  setInterval(loadPlaying, 15000);
}

/** The form of a game against the engine or a friend (the first page's form). */
function newGameForm(): HTMLElement {
  return h(
    "form",
    { id: "new-game" },
    h("fieldset", {}, h("legend", {}, t("form.game")), ...radios("game", games(), "xiangqi")),
    h(
      "fieldset",
      {},
      h("legend", {}, t("form.opponent")),
      ...radios("opponent", [["engine", t("lobby.engine")], ["friend", t("lobby.friend")]], "engine"),
      h("label", { className: "engine-only" }, t("form.level"), " ", h("input", { type: "range", id: "level", name: "level", min: "0", max: "20", value: "10" }), " ", h("output", { id: "level-out" }, "10")),
      h("p", { className: "hint friend-only", hidden: true }, t("lobby.friend_help")),
    ),
    h("fieldset", {}, h("legend", {}, t("form.side")), ...radios("side", [["first", t("color.first")], ["second", t("color.second")], ["random", t("color.random")]], "first")),
    h("fieldset", {}, h("legend", {}, t("form.clock")), clockSelect("clock")),
    h("details", {}, h("summary", {}, t("form.position")), h("input", { type: "text", id: "position", name: "position", placeholder: "start", autocomplete: "off", spellcheck: "false" })),
    h("button", { type: "submit", id: "start" }, t("form.start")),
    h("p", { className: "error", id: "new-error", role: "alert" }),
  );
}

function wireNewGame(): void {
  const level = $<HTMLInputElement>("#level");
  level.addEventListener("input", () => ($("#level-out").textContent = level.value));
  const syncOpponent = () => {
    const engine = ($("input[name=opponent]:checked") as HTMLInputElement).value === "engine";
    document.querySelectorAll<HTMLElement>(".engine-only").forEach((e) => (e.hidden = !engine));
    document.querySelectorAll<HTMLElement>(".friend-only").forEach((e) => (e.hidden = engine));
  };
  document.querySelectorAll("input[name=opponent]").forEach((r) => r.addEventListener("change", syncOpponent));
  syncOpponent();
  $("#new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#new-error").textContent = "";
    const checked = (name: string) => ($(`input[name=${name}]:checked`) as HTMLInputElement).value;
    const body: Record<string, unknown> = { game: checked("game"), opponent: checked("opponent"), side: checked("side") };
    if (body.opponent === "engine") body.level = Number(level.value);
    const clock = $<HTMLSelectElement>("#clock").value;
    if (clock) {
      const [initial, increment] = clock.split("+").map(Number);
      body.clock = { initial_s: initial, increment_s: increment };
    }
    const position = $<HTMLInputElement>("#position").value.trim();
    if (position) body.position = position;
    try {
      const created = await api("POST", "/api/games", body, { "Idempotency-Key": idempotencyKey() });
      location.assign("/g/" + created.game.id);
    } catch (e) {
      $("#new-error").textContent = errorText(e);
    }
  });
}

async function quickSeek(initial: number, increment: number): Promise<void> {
  const me = current();
  await seek({ game: "xiangqi", clock: { initial_s: initial, increment_s: increment }, rated: !!me.user && !me.user.guest, color: "random" }, "#quick-error");
}

async function seek(body: Record<string, unknown>, errorAt: string): Promise<void> {
  $(errorAt).textContent = "";
  try {
    await api("POST", "/api/seeks", { ...body, socket: lobby.socketId });
    await refreshMe();
  } catch (e) {
    $(errorAt).textContent = errorText(e);
  }
}

function connectLobby(): void {
  const socket = new WebSocket(socketUrl("/api/lobby/ws"));
  lobby.socket = socket;
  socket.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "hello") lobby.socketId = m.socket;
    else if (m.type === "seeks") renderSeeks(m.seeks);
    else if (m.type === "challenges") renderChallenges(m.challenges);
    else if (m.type === "start") enterGame(m.game);
  });
  socket.addEventListener("close", () => {
    lobby.socket = null;
    lobby.socketId = null;
    setTimeout(connectLobby, 1000);
  });
}

function playerCell(p: SeekPlayer): HTMLElement {
  return p.guest ? h("span", { className: "name" }, p.name) : link(profileUrl(p.name), p.name);
}

function ratingText(p: { rating: number | null; provisional: boolean }): string {
  return p.rating === null ? "" : `${p.rating}${p.provisional ? "?" : ""}`;
}

function renderSeeks(seeks: Seek[]): void {
  lobby.seeks = seeks;
  const me = current().user;
  const body = $("#seek-table tbody");
  body.textContent = "";
  for (const s of seeks) {
    const mine = me !== null && s.player.name === me.name;
    const action = mine
      ? h("button", { className: "cancel", onclick: () => cancelSeek(s.id) }, t("lobby.cancel"))
      : s.served === false
        ? h("button", { className: "accept", disabled: true, title: t("lobby.not_served") }, t("lobby.accept"))
        : h("button", { className: "accept", onclick: () => acceptSeek(s.id) }, t("lobby.accept"));
    body.append(
      h(
        "tr",
        { "data-seek": s.id, className: mine ? "mine" : "" },
        h("td", { "data-label": t("lobby.player") }, playerCell(s.player), mine ? h("span", { className: "hint" }, ` (${t("lobby.your_seek")})`) : null),
        h("td", { "data-label": t("lobby.rating") }, ratingText(s.player)),
        h("td", { "data-label": t("form.game") }, gameName(s.game)),
        h("td", { "data-label": t("lobby.time") }, clockText(s.clock)),
        h("td", { "data-label": t("lobby.mode") }, t(s.rated ? "mode.rated" : "mode.casual")),
        h("td", {}, action),
      ),
    );
  }
  $("#no-seeks").hidden = seeks.length > 0;
  $("#seek-table").hidden = seeks.length === 0;
}

async function acceptSeek(id: string): Promise<void> {
  $("#quick-error").textContent = "";
  try {
    const created = await api("POST", `/api/seeks/${id}/accept`, undefined, { "Idempotency-Key": idempotencyKey() });
    enterGame(created.game.id);
  } catch (e) {
    $("#quick-error").textContent = errorText(e);
  }
}

async function cancelSeek(id: string): Promise<void> {
  try {
    await api("DELETE", `/api/seeks/${id}`);
  } catch (e) {
    $("#quick-error").textContent = errorText(e);
  }
}

async function loadChallenges(): Promise<void> {
  try {
    const data = await api<{ challenges: Challenge[] }>("GET", "/api/challenges");
    renderChallenges(data.challenges);
  } catch {
    /* the list stays as it was */
  }
}

function terms(c: Challenge): string {
  return [gameName(c.game), clockText(c.clock), t(c.rated ? "mode.rated" : "mode.casual")].join(" · ");
}

function renderChallenges(challenges: Challenge[]): void {
  const list = $("#challenge-list");
  list.textContent = "";
  for (const c of challenges) {
    const verb = async (v: string) => {
      try {
        const answer = await api("POST", `/api/challenges/${c.id}/${v}`, undefined, v === "accept" ? { "Idempotency-Key": idempotencyKey() } : {});
        if (v === "accept") enterGame(answer.game.id);
        else loadChallenges();
      } catch (e) {
        $("#challenge-error").textContent = errorText(e);
      }
    };
    list.append(
      c.incoming
        ? h(
            "li",
            { className: "challenge incoming", "data-challenge": c.id },
            t("lobby.challenge_from", { name: c.from.name, terms: terms(c) }),
            " ",
            c.served === false
              ? h("button", { className: "accept", disabled: true, title: t("lobby.not_served") }, t("lobby.accept"))
              : h("button", { className: "accept", onclick: () => verb("accept") }, t("lobby.accept")),
            " ",
            h("button", { className: "decline", onclick: () => verb("decline") }, t("lobby.decline")),
          )
        : h(
            "li",
            { className: "challenge outgoing", "data-challenge": c.id },
            t("lobby.challenge_to", { name: c.to.name, terms: terms(c) }),
            " ",
            h("button", { className: "cancel", onclick: () => verb("cancel") }, t("lobby.cancel")),
          ),
    );
  }
  if (!challenges.length) list.append(h("li", { className: "hint" }, t("lobby.no_challenges")));
}

async function loadPlaying(): Promise<void> {
  let games: Summary[] = [];
  try {
    games = (await api<{ games: Summary[] }>("GET", "/api/playing")).games;
  } catch {
    return;
  }
  const list = $("#playing-list");
  list.textContent = "";
  for (const g of games) {
    const who = (i: number) => {
      const p = g.players[i];
      return `${p.name ?? "?"}${p.rating !== null ? ` (${ratingText(p)})` : ""}`;
    };
    list.append(
      h(
        "li",
        { "data-game": g.id },
        link(`/g/${g.id}`, `${who(0)} – ${who(1)}`),
        h("span", { className: "hint" }, ` · ${gameName(g.game)} · ${clockText(g.clock)} · ${t("archive.moves", { n: g.plies })}${g.spectators ? ` · ${t("lobby.spectators", { n: g.spectators })}` : ""}`),
      ),
    );
  }
  $("#no-playing").hidden = games.length > 0;
}

async function importRecord(event: Event): Promise<void> {
  event.preventDefault();
  $("#import-error").textContent = "";
  const file = $<HTMLInputElement>("#import-file").files?.[0];
  try {
    const created = file
      ? await api("POST", "/api/import", await file.arrayBuffer())
      : await api("POST", "/api/import", { record: $<HTMLTextAreaElement>("#import-pcn").value });
    location.assign(`/g/${created.game.id}?format=${encodeURIComponent(created.format)}`);
  } catch (e) {
    $("#import-error").textContent = errorText(e);
  }
}
