// chuhe's page: one script for every view of the site, chosen by the address.

import { setupAnalysis } from "./analysis";
import { setupArchive } from "./archive";
import { $ } from "./dom";
import { setupEditor } from "./editor";
import { setupGame } from "./game";
import { catalogues, setLanguage, t } from "./i18n";
import { loadKinds } from "./kinds";
import { setupLobby } from "./lobby";
import { setupAccount, setupCredentials, setupLeaderboard, setupProfile } from "./people";
import { refresh } from "./session";

async function route(): Promise<void> {
  // The server writes the language into the page (`<html lang>`), from the player's choice
  // or the browser's Accept-Language.
  setLanguage(document.documentElement.lang || "en");
  document.title = t("title.site");
  await Promise.all([refresh(), loadKinds()]);
  const main = $("main");
  const path = location.pathname;
  const game = path.match(/^\/g\/([A-Za-z0-9]+)$/);
  const profile = path.match(/^\/@\/(.+)$/);
  if (game) setupGame(main, game[1], new URLSearchParams(location.search).get("invite"));
  else if (profile) setupProfile(main, decodeURIComponent(profile[1]));
  else if (path === "/archive") setupArchive(main);
  else if (path === "/analysis") setupAnalysis(main);
  else if (path === "/editor") setupEditor(main);
  else if (path === "/leaderboard") setupLeaderboard(main);
  else if (path === "/login") setupCredentials(main, "login");
  else if (path === "/signup") setupCredentials(main, "signup");
  else if (path === "/account") setupAccount(main);
  else setupLobby(main);
  prefillChallenge();
}

/** A profile's "Challenge" link opens the lobby with the name filled in. */
function prefillChallenge(): void {
  const name = new URLSearchParams(location.search).get("challenge");
  const field = document.querySelector<HTMLInputElement>("#challenge-form input[name=to]");
  if (name && field) {
    field.value = name;
    field.focus();
  }
}

// The catalogues, for the browser tests that look for strings left untranslated.
(window as unknown as { chuheCatalogues: typeof catalogues }).chuheCatalogues = catalogues;

route();
