// Players' pages: a profile (ratings, record, rating chart, recent games, a challenge), the
// leaderboard, and the account forms (log in, sign up, change the password).

import { api } from "./api";
import { gameCard, Summary } from "./archive";
import { $, fill, h, link } from "./dom";
import { t } from "./i18n";
import { current, profileUrl, refresh as refreshMe } from "./session";
import { day, errorText, gameName } from "./words";

interface PerfRating {
  perf: string;
  game: string;
  speed: string;
  rating: number;
  deviation: number;
  provisional: boolean;
  games: number;
  wins: number;
  losses: number;
  draws: number;
}

function perfName(r: { game: string; speed: string }): string {
  return `${gameName(r.game)} · ${t(`speed.${r.speed}` as "speed.blitz")}`;
}

/** `/@/NAME`: a player's profile. */
export async function setupProfile(main: HTMLElement, name: string): Promise<void> {
  fill(main, h("section", { id: "profile" }, h("h1", {}, name), h("p", { className: "error", id: "profile-error", role: "alert" })));
  let profile: { user: { name: string; guest: boolean }; created_ms: number; ratings: PerfRating[]; record: Record<string, number> };
  try {
    profile = await api("GET", `/api/users/${encodeURIComponent(name)}`);
  } catch (e) {
    $("#profile-error").textContent = errorText(e);
    return;
  }
  const me = current().user;
  const chart = h("img", { id: "rating-chart", alt: t("profile.chart"), width: "360", height: "140" });
  const perfs = h("select", { id: "chart-perf" }, ...profile.ratings.map((r) => h("option", { value: r.perf }, perfName(r))));
  const showChart = () => {
    chart.setAttribute("src", `/api/users/${encodeURIComponent(profile.user.name)}/rating.svg?perf=${encodeURIComponent(perfs.value)}`);
  };
  perfs.addEventListener("change", showChart);
  const ratings = profile.ratings.length
    ? h(
        "table",
        { id: "ratings", className: "list" },
        h("tbody", {}, ...profile.ratings.map((r) =>
          h(
            "tr",
            { "data-perf": r.perf },
            h("td", {}, perfName(r)),
            h("td", { className: "rating" }, `${r.rating}${r.provisional ? "?" : ""}`),
            h("td", { className: "hint" }, t("profile.games_count", { n: r.games })),
          ),
        )),
      )
    : h("p", { className: "hint" }, t("profile.no_ratings"));
  const challenge =
    me && me.name !== profile.user.name && !profile.user.guest
      ? h("a", { className: "button", href: `/?challenge=${encodeURIComponent(profile.user.name)}#challenges` }, t("profile.challenge", { name: profile.user.name }))
      : null;
  fill(
    $("#profile"),
    h("h1", {}, profile.user.name),
    h("p", { className: "hint" }, profile.user.guest ? t("profile.guest") : t("profile.member_since", { date: day(profile.created_ms) })),
    h("p", { id: "record" }, t("profile.record", profile.record)),
    challenge,
    h("h2", {}, t("profile.ratings")),
    ratings,
    profile.ratings.length ? h("div", { className: "chart" }, h("h3", {}, t("profile.chart")), perfs, h("div", {}, chart)) : null,
    h("h2", {}, t("profile.games")),
    h("ul", { id: "profile-games", className: "cards" }),
    link(`/archive?player=${encodeURIComponent(profile.user.name)}`, t("profile.all_games")),
  );
  if (profile.ratings.length) showChart();
  const games = await api<{ games: Summary[] }>("GET", `/api/games?player=${encodeURIComponent(profile.user.name)}&limit=10`).catch(() => ({ games: [] }));
  for (const g of games.games) $("#profile-games").append(gameCard(g));
}

/** `/leaderboard`: the best players of each category. */
export async function setupLeaderboard(main: HTMLElement): Promise<void> {
  fill(main, h("section", { id: "leaderboard" }, h("h1", {}, t("leaderboard.title"))));
  const data = await api<{ leaderboard: { perf: string; players: (PerfRating & { name: string })[] }[] }>("GET", "/api/leaderboard").catch(() => ({ leaderboard: [] }));
  const section = $("#leaderboard");
  if (!data.leaderboard.length) section.append(h("p", { className: "hint" }, t("leaderboard.empty")));
  for (const board of data.leaderboard) {
    const [game, speed] = board.perf.split(":");
    section.append(
      h("h2", {}, perfName({ game, speed })),
      h(
        "table",
        { className: "list", "data-perf": board.perf },
        h("thead", {}, h("tr", {}, h("th", {}, t("leaderboard.rank")), h("th", {}, t("leaderboard.player")), h("th", {}, t("leaderboard.rating")), h("th", {}, t("leaderboard.games")))),
        h("tbody", {}, ...board.players.map((p, i) =>
          h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, link(profileUrl(p.name), p.name)), h("td", {}, `${p.rating}${p.provisional ? "?" : ""}`), h("td", {}, String(p.games))),
        )),
      ),
    );
  }
}

function credentialsForm(id: string, submit: string, newPassword: boolean): HTMLFormElement {
  return h(
    "form",
    { id, className: "account-form" },
    h("label", {}, t("form.name"), h("input", { type: "text", name: "name", autocomplete: "username", required: true, maxlength: "64" })),
    h("label", {}, t("form.password"), h("input", { type: "password", name: "password", autocomplete: newPassword ? "new-password" : "current-password", required: true })),
    h("button", { type: "submit" }, submit),
    h("p", { className: "error", role: "alert" }),
  );
}

/** `/login` and `/signup`. */
export function setupCredentials(main: HTMLElement, mode: "login" | "signup"): void {
  const me = current();
  const closed = mode === "signup" && me.signup === "closed";
  const form = credentialsForm(mode === "login" ? "login-form" : "signup-form", t(mode === "login" ? "account.login" : "account.signup"), mode === "signup");
  fill(
    main,
    h(
      "section",
      { id: "account", className: "narrow" },
      h("h1", {}, t(mode === "login" ? "account.login" : "account.signup")),
      closed ? h("p", { className: "hint" }, t("account.signup_closed")) : form,
      mode === "signup" && !closed ? h("p", { className: "hint" }, t("account.signup_help")) : null,
      mode === "login"
        ? me.signup === "open"
          ? link("/signup", t("account.need_account"))
          : null
        : link("/login", t("account.have_account")),
    ),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const error = form.querySelector(".error")!;
    error.textContent = "";
    try {
      await api("POST", mode === "login" ? "/api/login" : "/api/signup", { name: data.get("name"), password: data.get("password") });
      await refreshMe();
      const back = new URLSearchParams(location.search).get("back");
      location.assign(back && back.startsWith("/") && !back.startsWith("//") ? back : "/");
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
}

/** `/account`: the password change and the way to one's profile. */
export function setupAccount(main: HTMLElement): void {
  const me = current().user;
  if (!me || me.guest) return setupCredentials(main, "login");
  const form = h(
    "form",
    { id: "password-form", className: "account-form" },
    h("label", {}, t("form.old_password"), h("input", { type: "password", name: "old", autocomplete: "current-password", required: true })),
    h("label", {}, t("form.new_password"), h("input", { type: "password", name: "new", autocomplete: "new-password", required: true })),
    h("button", { type: "submit" }, t("account.change_password")),
    h("p", { className: "error", role: "alert" }),
    h("p", { className: "done", role: "status" }),
  );
  fill(main, h("section", { id: "account", className: "narrow" }, h("h1", {}, t("account.title")), link(profileUrl(me.name), t("account.profile")), h("h2", {}, t("account.change_password")), form));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    form.querySelector(".error")!.textContent = "";
    form.querySelector(".done")!.textContent = "";
    try {
      await api("POST", "/api/password", { old: data.get("old"), new: data.get("new") });
      form.reset();
      form.querySelector(".done")!.textContent = t("account.password_changed");
    } catch (err) {
      form.querySelector(".error")!.textContent = errorText(err);
    }
  });
}
