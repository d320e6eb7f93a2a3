// Who is using the page (an account, a guest, or nobody yet), and the header that says so.

import { api } from "./api";
import { $, fill, h, link } from "./dom";
import { chooseLanguage, language, LANGUAGES, t } from "./i18n";

export interface User {
  id: string;
  name: string;
  guest: boolean;
}

export interface Me {
  user: User | null;
  signup: "open" | "closed";
}

let me: Me = { user: null, signup: "open" };

/** The player of this browser, as last read. */
export function current(): Me {
  return me;
}

/** Reads who this browser is (after a login, a sign-up, a guest made by an action). */
export async function refresh(): Promise<Me> {
  try {
    me = await api<Me>("GET", "/api/me");
  } catch {
    me = { user: null, signup: "open" };
  }
  renderHeader();
  return me;
}

/** The URL of a player's profile. */
export function profileUrl(name: string): string {
  return `/@/${encodeURIComponent(name)}`;
}

/** The header: the site's name, the navigation, and the player's name or the login links. */
export function renderHeader(): void {
  const user = me.user;
  const who = user
    ? [
        link(profileUrl(user.name), user.guest ? t("nav.guest", { name: user.name }) : user.name),
        user.guest ? link("/signup", t("nav.signup")) : link("/account", t("nav.account")),
        user.guest
          ? null
          : h("button", { className: "linkish", id: "logout", onclick: logout }, t("nav.logout")),
      ]
    : [link("/login", t("nav.login")), me.signup === "open" ? link("/signup", t("nav.signup")) : null];
  const languages = h(
    "select",
    { id: "language", "aria-label": t("nav.language"), title: t("nav.language") },
    ...LANGUAGES.map(([tag, name]) => h("option", { value: tag, lang: tag, selected: tag === language() }, name)),
  );
  languages.addEventListener("change", () => chooseLanguage(languages.value));
  fill($("#user-menu"), ...who.flat(), languages);
  fill(
    $("#site-nav"),
    link("/", t("nav.play")),
    link("/archive", t("nav.archive")),
    link("/leaderboard", t("nav.leaderboard")),
    link("/analysis", t("nav.analysis")),
  );
}

async function logout(): Promise<void> {
  await api("POST", "/api/logout").catch(() => undefined);
  location.assign("/");
}
