-- One row per game whose engine move a server has claimed (one server searches it).
CREATE TABLE IF NOT EXISTS engine_claims (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    ply BIGINT NOT NULL,
    holder TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
