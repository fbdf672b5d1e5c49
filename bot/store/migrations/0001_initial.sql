-- 0001: the chip league. Integer chips only; every table STRICT so SQLite refuses a
-- text or real value in an INTEGER column instead of silently storing it.
-- Times are unix seconds (INTEGER). JSON columns are TEXT checked with json_valid.
-- Kept close to standard SQL (partial indexes, CHECKs, window functions in queries) so a
-- PostgreSQL backend can follow.

CREATE TABLE leagues (
    guild_id               INTEGER PRIMARY KEY,
    starting_chips         INTEGER NOT NULL DEFAULT 1000 CHECK (starting_chips >= 0),
    rebuy_amount           INTEGER NOT NULL DEFAULT 1000 CHECK (rebuy_amount >= 0),
    rebuy_cooldown_seconds INTEGER NOT NULL DEFAULT 86400 CHECK (rebuy_cooldown_seconds >= 0),
    -- per game: {"zoot": {"stakes": {...}, "house_rules": {...}}, ...}
    game_settings          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(game_settings)),
    admin_role_id          INTEGER,
    -- JSON list of channel ids; empty list = every channel
    allowed_channel_ids    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(allowed_channel_ids)),
    images                 INTEGER NOT NULL DEFAULT 1 CHECK (images IN (0, 1)),
    created_at             INTEGER NOT NULL,
    updated_at             INTEGER NOT NULL
) STRICT;

CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    -- final standings, archived when the season ends
    standings   TEXT CHECK (standings IS NULL OR json_valid(standings)),
    UNIQUE (guild_id, number)
) STRICT;

-- at most one open season per league
CREATE UNIQUE INDEX seasons_one_open ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    channel_id  INTEGER NOT NULL,
    game        TEXT NOT NULL CHECK (game IN ('zoot', 'wheelers', 'razz')),
    rules       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'running', 'paused', 'closed')),
    host_id     INTEGER,
    snapshot    TEXT CHECK (snapshot IS NULL OR json_valid(snapshot)),
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    deadline    INTEGER,
    practice    INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1)),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

-- one live table per channel (a thread is a channel, so a server may run many)
CREATE UNIQUE INDEX tables_one_live_per_channel ON tables (channel_id) WHERE status <> 'closed';
CREATE INDEX tables_live ON tables (status) WHERE status <> 'closed';

-- Chip holders. 'house' (one per league) issues and removes chips, so its balance is the
-- negative of all chips in circulation; 'player' wallets are per (league, season, user);
-- 'pot' is one per table.
CREATE TABLE accounts (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    kind        TEXT NOT NULL CHECK (kind IN ('house', 'player', 'pot')),
    season_id   INTEGER REFERENCES seasons (id),
    user_id     INTEGER,
    table_id    INTEGER REFERENCES tables (id),
    balance     INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    CHECK (kind = 'house' OR balance >= 0),
    CHECK ((kind = 'player') = (user_id IS NOT NULL AND season_id IS NOT NULL)),
    CHECK ((kind = 'pot') = (table_id IS NOT NULL))
) STRICT;

CREATE UNIQUE INDEX accounts_one_house ON accounts (guild_id) WHERE kind = 'house';
CREATE UNIQUE INDEX accounts_one_wallet ON accounts (season_id, user_id) WHERE kind = 'player';
CREATE UNIQUE INDEX accounts_one_pot ON accounts (table_id) WHERE kind = 'pot';

CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    game        TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'finished', 'voided')),
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    history     TEXT,
    result      TEXT CHECK (result IS NULL OR json_valid(result)),
    UNIQUE (table_id, number)
) STRICT;

CREATE UNIQUE INDEX hands_one_running ON hands (table_id) WHERE status = 'running';

-- The ledger: every chip that moves is one row (RULES §5.1). Append-only.
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES leagues (guild_id),
    season_id     INTEGER NOT NULL REFERENCES seasons (id),
    from_account  INTEGER NOT NULL REFERENCES accounts (id),
    to_account    INTEGER NOT NULL REFERENCES accounts (id),
    amount        INTEGER NOT NULL CHECK (amount > 0),
    kind          TEXT NOT NULL CHECK (kind IN (
                      'start', 'grant', 'take', 'rebuy', 'ante', 'bring_in', 'bet',
                      'match', 'award', 'refund', 'void', 'season_end')),
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    actor_id      INTEGER,
    reason        TEXT,
    created_at    INTEGER NOT NULL,
    CHECK (from_account <> to_account)
) STRICT;

CREATE INDEX ledger_from ON ledger (from_account);
CREATE INDEX ledger_to ON ledger (to_account);
CREATE INDEX ledger_table ON ledger (table_id) WHERE table_id IS NOT NULL;
CREATE INDEX ledger_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;
-- the starting chips arrive once per wallet, and a wallet is per season
CREATE UNIQUE INDEX ledger_one_start ON ledger (to_account) WHERE kind = 'start';

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only: UPDATE refused');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only: DELETE refused');
END;

CREATE TABLE seats (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    seat_no        INTEGER NOT NULL CHECK (seat_no >= 0),
    user_id        INTEGER NOT NULL,
    is_computer    INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
    away           INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
    dm_channel_id  INTEGER,
    dm_message_id  INTEGER,
    -- NULL: not checked yet; 0: DMs fail (error 50007), use the "My hand" button
    dm_ok          INTEGER CHECK (dm_ok IN (0, 1)),
    joined_at      INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat_no),
    UNIQUE (table_id, user_id)
) STRICT;

-- The hand log: the engine's events, in order, each with who may see it.
CREATE TABLE hand_events (
    hand_id     INTEGER NOT NULL REFERENCES hands (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT NOT NULL,
    visible_to  INTEGER,
    event       TEXT NOT NULL CHECK (json_valid(event)),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (hand_id, seq)
) STRICT;

CREATE TRIGGER hand_events_no_update BEFORE UPDATE ON hand_events
BEGIN
    SELECT RAISE(ABORT, 'hand events are append-only: UPDATE refused');
END;

CREATE TABLE hand_results (
    hand_id     INTEGER NOT NULL REFERENCES hands (id),
    user_id     INTEGER NOT NULL,
    seat_no     INTEGER NOT NULL,
    paid        INTEGER NOT NULL DEFAULT 0 CHECK (paid >= 0),
    won         INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0),
    net         INTEGER NOT NULL,
    won_pot     INTEGER NOT NULL DEFAULT 0 CHECK (won_pot IN (0, 1)),
    detail      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail)),
    PRIMARY KEY (hand_id, user_id),
    CHECK (net = won - paid)
) STRICT;

-- Messages the bot edits in place (table message, results...), needed after a restart.
CREATE TABLE table_messages (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    kind        TEXT NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (table_id, kind)
) STRICT;
