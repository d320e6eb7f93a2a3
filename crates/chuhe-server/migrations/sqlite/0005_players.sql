-- Players (accounts and guests) and their sessions; games with players, ratings and the
-- moment something must happen next; Glicko-2 ratings and their history; the lobby's seeks
-- and challenges; answers kept for Idempotency-Key; who is at each game.
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    guest BOOLEAN NOT NULL,
    disabled BOOLEAN NOT NULL DEFAULT FALSE,
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id);
ALTER TABLE games ADD COLUMN first_user TEXT REFERENCES users (id);
ALTER TABLE games ADD COLUMN second_user TEXT REFERENCES users (id);
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN invite TEXT;
ALTER TABLE games ADD COLUMN first_rating BIGINT;
ALTER TABLE games ADD COLUMN second_rating BIGINT;
ALTER TABLE games ADD COLUMN first_provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN second_provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN first_diff BIGINT;
ALTER TABLE games ADD COLUMN second_diff BIGINT;
ALTER TABLE games ADD COLUMN rated_ms BIGINT;
ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
ALTER TABLE games ADD COLUMN turn_ms BIGINT;
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
ALTER TABLE games ADD COLUMN rematch_id TEXT;
CREATE INDEX IF NOT EXISTS games_by_first_user ON games (first_user, created_ms);
CREATE INDEX IF NOT EXISTS games_by_second_user ON games (second_user, created_ms);
CREATE INDEX IF NOT EXISTS games_by_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_in_play ON games (updated_ms) WHERE status IS NULL;
CREATE TABLE IF NOT EXISTS ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    perf TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, perf)
);
CREATE INDEX IF NOT EXISTS ratings_by_perf ON ratings (perf, rating DESC);
CREATE TABLE IF NOT EXISTS rating_history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL REFERENCES users (id),
    perf TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_by_user ON rating_history (user_id, perf, seq);
CREATE TABLE IF NOT EXISTS seeks (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    initial_ms BIGINT,
    increment_ms BIGINT,
    rated BOOLEAN NOT NULL,
    color TEXT NOT NULL,
    socket TEXT,
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    from_user TEXT NOT NULL REFERENCES users (id),
    to_user TEXT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    initial_ms BIGINT,
    increment_ms BIGINT,
    rated BOOLEAN NOT NULL,
    color TEXT NOT NULL,
    status TEXT NOT NULL,
    game_id TEXT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges (to_user, status);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges (from_user, status);
CREATE TABLE IF NOT EXISTS idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    route TEXT NOT NULL,
    status BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE TABLE IF NOT EXISTS presence (
    server_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    first_here BOOLEAN NOT NULL,
    second_here BOOLEAN NOT NULL,
    spectators BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    PRIMARY KEY (server_id, game_id)
);
