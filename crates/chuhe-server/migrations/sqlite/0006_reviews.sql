-- One row per game under review: the engine's evaluation of each of its positions so far
-- (JSON), how many are done of how many, and the server computing it with its heartbeat
-- (a review whose heartbeat is stale is taken over by another server).
CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    nodes BIGINT NOT NULL,
    total BIGINT NOT NULL,
    done BIGINT NOT NULL,
    positions TEXT NOT NULL,
    state TEXT NOT NULL,
    holder TEXT,
    heartbeat_ms BIGINT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
