// The page's words: one catalogue per language — English here, 简体中文, 繁體中文 and Tiếng
// Việt in lang/ — every string of the page, the results and the errors by key, with `{name}`
// parameters. A catalogue is typed as having every key of the English one: a string missing
// in any language fails the type check (`scripts/build-page`), and CI.

import { zhHans } from "./lang/zh-Hans";
import { zhHant } from "./lang/zh-Hant";
import { vi } from "./lang/vi";

const en = {
  // header and navigation
  "nav.play": "Play",
  "nav.archive": "Archive",
  "nav.leaderboard": "Leaderboard",
  "nav.login": "Log in",
  "nav.signup": "Sign up",
  "nav.account": "Account",
  "nav.logout": "Log out",
  "nav.guest": "{name} (guest)",
  "nav.language": "Language",
  "title.site": "chuhe — play Xiangqi and Xiongqi",
  "title.game": "{game} — chuhe",
  "title.turn": "{turn} — {game} — chuhe",
  "title.your_turn": "Your move — {game} — chuhe",

  // games and sides
  "game.xiangqi": "Xiangqi",
  "game.xiongqi": "Xiongqi",
  "game.xiangqi-capture": "Xiangqi (capture rules)",
  "game.xiangqi.long": "Xiangqi 象棋",
  "game.xiongqi.long": "Xiongqi 熊棋",
  "game.xiangqi-capture.long": "Xiangqi, capture-the-king rules",
  "side.red": "Red",
  "side.black": "Black",
  "side.south": "South",
  "side.north": "North",
  "speed.bullet": "Bullet",
  "speed.blitz": "Blitz",
  "speed.rapid": "Rapid",
  "speed.classical": "Classical",
  "mode.rated": "Rated",
  "mode.casual": "Casual",
  "clock.none": "No clock",
  "color.first": "First (Red, moves first)",
  "color.second": "Second (Black)",
  "color.random": "Random",
  "engine.name": "chuhe level {level}",
  "player.open_seat": "Waiting for a player",

  // lobby
  "lobby.quick": "Quick pairing",
  "lobby.quick_help": "Click a time control: your seek waits here for an opponent.",
  "lobby.create": "Create a game",
  "lobby.seeks": "Lobby",
  "lobby.no_seeks": "No one is seeking a game right now. Create one!",
  "lobby.player": "Player",
  "lobby.rating": "Rating",
  "lobby.time": "Time",
  "lobby.mode": "Mode",
  "lobby.accept": "Play",
  "lobby.cancel": "Cancel",
  "lobby.your_seek": "your seek",
  "lobby.seek": "Seek a game",
  "lobby.rated_needs_account": "Rated games need an account: sign up or log in.",
  "lobby.challenges": "Challenges",
  "lobby.no_challenges": "No challenges.",
  "lobby.challenge_from": "{name} challenges you: {terms}",
  "lobby.challenge_to": "You challenge {name}: {terms}",
  "lobby.challenge": "Challenge a player",
  "lobby.challenge_name": "Player's name",
  "lobby.send_challenge": "Send the challenge",
  "lobby.decline": "Decline",
  "lobby.playing": "Games being played",
  "lobby.no_playing": "No game between players is going on.",
  "lobby.spectators": "{n} watching",
  "lobby.engine": "Play the engine",
  "lobby.engine_or_friend": "Play the engine or a friend",
  "lobby.friend": "Play a friend",
  "lobby.friend_help": "You get a link to send; the first person to open it plays you.",
  "lobby.import": "Import a game record",
  "lobby.import_help": "PGN, PCN, a FEN or FEEN, or an XQF file: it opens as a board to replay.",
  "lobby.import_file": "or an XQF file",
  "lobby.imported_format": "Read as {format}.",

  // forms
  "form.game": "Game",
  "form.opponent": "Opponent",
  "form.level": "Engine strength",
  "form.side": "You play",
  "form.clock": "Clock",
  "form.minutes": "Minutes",
  "form.increment": "Increment (s)",
  "form.rated": "Rated",
  "form.position": "Start from a position (FEEN, or FEN for Xiangqi)",
  "form.start": "Start the game",
  "form.invite": "Create the invite link",
  "form.import": "Import",
  "form.name": "Name",
  "form.password": "Password",
  "form.new_password": "New password",
  "form.old_password": "Current password",

  // accounts
  "account.login": "Log in",
  "account.signup": "Sign up",
  "account.signup_closed": "Sign-up is closed on this server: ask its administrator for an account.",
  "account.signup_help": "2–24 characters; any script (中文, Tiếng Việt…). Your guest games stay yours.",
  "account.have_account": "Have an account? Log in",
  "account.need_account": "No account? Sign up",
  "account.title": "Your account",
  "account.change_password": "Change the password",
  "account.password_changed": "The password is changed; your other sessions are ended.",
  "account.profile": "Your profile",

  // game page
  "play.your_move": "Your move ({side})",
  "play.to_move": "{side} to move",
  "play.watching": "{side} to move — you are watching",
  "play.check": "check!",
  "play.thinking": "the engine is thinking…",
  "play.offers_draw": "{side} offers a draw",
  "play.type_move": "Type a move",
  "play.play": "Play",
  "play.resign": "Resign",
  "play.resign_confirm": "Resign this game?",
  "play.abort": "Abort",
  "play.offer_draw": "Offer a draw",
  "play.accept_draw": "Accept the draw",
  "play.decline": "Decline",
  "play.take_back": "Take back",
  "play.flip": "Flip board",
  "play.latin": "Latin letters",
  "play.sound_off": "Sound off",
  "play.sound_on": "Sound on",
  "play.analyse": "Analyse",
  "play.chinese": "Chinese characters",
  "play.rematch": "Rematch",
  "play.rematch_offered": "Rematch offered…",
  "play.accept_rematch": "Accept the rematch",
  "play.rematch_from": "{side} offers a rematch",
  "play.to_rematch": "Go to the rematch",
  "play.invite": "Send this link to your friend (the first to open it plays you):",
  "play.copy": "Copy",
  "play.copied": "Copied",
  "play.watch_link": "watch link",
  "play.spectators": "Spectators:",
  "play.download_pcn": "download PCN",
  "play.download_pgn": "download PGN",
  "play.position": "Position",
  "play.game_over": "Game over: {text}",
  "play.seat_taken": "Someone else took the seat: you are watching.",
  "play.review": "Imported record: replay it with the arrows.",
  "play.first_move_within": "first move within {time}",
  "play.promote": "Promote the soldier?",
  "play.cancel": "Cancel",
  "play.ply": "{shown} / {total}",
  "play.start": "go to the start",
  "play.back": "one move back",
  "play.forward": "one move forward",
  "play.now": "go to the last move",
  "play.board": "board: Enter to use the keyboard (arrow keys move the cursor, Enter picks a piece and its destination, Escape leaves); ←/→ step through the moves",
  "play.moves": "moves",
  "play.notation": "Moves in",
  "notation.coords": "coordinates",
  "notation.wxf": "coordinates and WXF",
  "notation.chinese": "Chinese (炮二平五)",
  "play.casual": "Casual",
  "play.rated": "Rated",

  // results
  "result.checkmate": "{winner} wins by checkmate",
  "result.stalemate": "{winner} wins: {loser} has no legal move (stalemate)",
  "result.nomove": "{winner} wins: {loser} has no legal move",
  "result.bareking": "{winner} wins by bare king",
  "result.mareking": "{winner} wins: {loser}'s general was captured",
  "result.resignation": "{winner} wins by resignation",
  "result.abandoned": "{winner} wins: {loser} left the game",
  "result.timelimit": "{winner} wins on time",
  "result.illegalmove": "{winner} wins: {loser} made a forbidden move",
  "result.repetition": "{winner} wins: {loser} repeated a position",
  "result.perpetual_check": "{winner} wins: {loser} checked perpetually",
  "result.perpetual_chase": "{winner} wins: {loser} chased perpetually",
  "result.agreement": "{winner} wins by agreement",
  "result.movelimit": "{winner} wins by the move limit",
  "result.insufficient": "{winner} wins: {loser} cannot win",
  "result.win": "{winner} wins",
  "draw.agreement": "Draw by agreement",
  "draw.repetition": "Draw by repetition",
  "draw.movelimit": "Draw by the move limit",
  "draw.insufficient": "Draw: neither side can win",
  "draw.stalemate": "Draw by stalemate",
  "draw.other": "Draw",
  "result.aborted": "Game aborted",
  "result.aborted_late": "Game aborted: {side} did not make a first move in time",
  "result.in_play": "in play",
  "result.draw_short": "½–½",
  "notice.draw_declined": "{side} declined the draw",

  // archive
  "archive.title": "Archive",
  "archive.player": "Player",
  "archive.vs": "Against",
  "archive.result": "Result",
  "archive.since": "From",
  "archive.until": "To",
  "archive.tc": "Time control",
  "archive.rated": "Rated",
  "archive.opponent": "Kind",
  "archive.any": "Any",
  "archive.yes": "Yes",
  "archive.no": "No",
  "archive.filter": "Show",
  "archive.ongoing": "In play",
  "archive.finished": "Finished",
  "archive.aborted": "Aborted",
  "archive.draws": "Draws",
  "archive.wins": "Won (by the player)",
  "archive.losses": "Lost (by the player)",
  "archive.engine": "Against the engine",
  "archive.friend": "Between players",
  "archive.record": "Imported",
  "archive.count": "Games found: {n}",
  "archive.none": "No game matches.",
  "archive.prev": "Newer",
  "archive.next": "Older",
  "archive.moves": "moves: {n}",
  "archive.open": "Open",

  // profiles and leaderboard
  "profile.member_since": "Member since {date}",
  "profile.guest": "A guest (no account)",
  "profile.ratings": "Ratings",
  "profile.no_ratings": "No rated game yet.",
  "profile.record": "Games: {games} — won {wins}, lost {losses}, drawn {draws}; in play: {playing}",
  "profile.games": "Recent games",
  "profile.all_games": "All games",
  "profile.chart": "Rating history",
  "profile.challenge": "Challenge {name}",
  "profile.games_count": "rated games: {n}",
  "leaderboard.title": "Leaderboard",
  "leaderboard.empty": "No rated games have been played yet.",
  "leaderboard.rank": "#",
  "leaderboard.player": "Player",
  "leaderboard.rating": "Rating",
  "leaderboard.games": "Games",

  // errors by code
  "error.game_over": "The game is over.",
  "error.not_your_turn": "It is not your move.",
  "error.engine_thinking": "The engine is thinking; wait for its move.",
  "error.stale": "The game changed meanwhile; it has been reloaded.",
  "error.bad_move": "Cannot read the move '{move}'.",
  "error.illegal_move": "'{move}' cannot be played.",
  "error.illegal_move.no_piece": "'{move}': there is no piece on {square}.",
  "error.illegal_move.not_your_piece": "'{move}': the piece on {square} is not yours.",
  "error.no_takeback": "You have no move to take back.",
  "error.no_takeback.engine_only": "Moves can be taken back only against the engine.",
  "error.no_draw_offer": "There is no draw offer to answer.",
  "error.draw_offered": "You have offered a draw already.",
  "error.cannot_abort": "Both sides have moved: resign instead.",
  "error.not_over": "The game is not over yet.",
  "error.no_rematch_offer": "There is no rematch offer to answer.",
  "error.rematch_made": "The rematch has been made already.",
  "error.review_only": "An imported record is replayed, not played.",
  "error.forbidden": "Only the game's players can do this.",
  "error.seat_taken": "Someone else took the seat: you are watching.",
  "error.bad_invite": "This invite link is not valid for this game.",
  "error.not_found": "Not found.",
  "error.bad_name": "The name {why}.",
  "error.bad_name.length": "The name must have 2 to 24 characters.",
  "error.bad_name.invisible": "The name has an invisible or control character.",
  "error.bad_name.spaces": "The name has two spaces in a row.",
  "error.bad_name.no_letter": "The name needs a letter or a digit.",
  "error.bad_name.guest_prefix": "The name may not begin with 'Guest-'.",
  "error.name_taken": "The name '{name}' is taken.",
  "error.bad_password": "The password {why}.",
  "error.bad_password.short": "The password needs 8 characters or more.",
  "error.bad_password.long": "The password is too long.",
  "error.wrong_login": "Wrong name or password.",
  "error.too_many_attempts": "Too many attempts: try again in {retry_after} s.",
  "error.signup_closed": "Sign-up is closed on this server.",
  "error.not_signed_in": "Log in first.",
  "error.guests_unrated": "Guests cannot play rated games: sign up or log in.",
  "error.bad_terms": "{why}",
  "error.bad_terms.initial": "The clock must start with 1 second to 180 minutes.",
  "error.bad_terms.increment": "The increment may be at most 180 seconds.",
  "error.bad_terms.rated_needs_clock": "A rated game needs a clock.",
  "error.bad_terms.side": "Choose a side: first, second or random.",
  "error.bad_terms.socket": "The lobby page was reloaded: try again.",
  "error.gone": "It is no longer open.",
  "error.own_seek": "This is your own seek.",
  "error.too_many_seeks": "You have too many seeks open.",
  "error.unknown_player": "No player is named '{name}'.",
  "error.self_challenge": "You cannot challenge yourself.",
  "error.too_many_games": "Too many new games: wait a little.",
  "error.database_unavailable": "The database is away for a moment; try again.",
  "error.network": "The server cannot be reached.",
  "error.board": "The board could not be drawn ({why}).",
};

export type Key = keyof typeof en;

/** A language's strings: every key. */
export type Catalogue = Record<Key, string>;

/** The languages by tag (the page's `lang`), with their names in themselves. */
export const LANGUAGES: [string, string][] = [
  ["en", "English"],
  ["zh-Hans", "简体中文"],
  ["zh-Hant", "繁體中文"],
  ["vi", "Tiếng Việt"],
];

/** The catalogues by language tag. */
export const catalogues: Record<string, Catalogue> = { en, "zh-Hans": zhHans, "zh-Hant": zhHant, vi };

let current: Catalogue = en;
let tag = "en";

/** The page's language (`en`, `zh-Hans`, `zh-Hant`, `vi`). */
export function language(): string {
  return tag;
}

/** Sets the page's language; English when there is no catalogue for it. */
export function setLanguage(wanted: string): void {
  tag = catalogues[wanted] ? wanted : "en";
  current = catalogues[tag];
  document.documentElement.lang = tag;
}

/** Chooses a language for the next pages (a cookie the server reads) and reloads. */
export function chooseLanguage(wanted: string): void {
  document.cookie = `chuhe_lang=${encodeURIComponent(wanted)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  location.reload();
}

/** The words of `key` with `{name}` parameters filled in. */
export function t(key: Key, params: Record<string, unknown> = {}): string {
  const text = current[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Whether `key` names a string of the catalogue. */
export function has(key: string): key is Key {
  return key in en;
}
