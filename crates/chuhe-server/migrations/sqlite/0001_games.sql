-- The games and their moves.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    start TEXT NOT NULL,
    opponent TEXT NOT NULL,
    engine_level INTEGER,
    engine_side TEXT,
    creator TEXT NOT NULL,
    first_token TEXT NOT NULL,
    second_token TEXT NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    status TEXT,
    winner TEXT,
    reason TEXT,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated_ms DESC);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
