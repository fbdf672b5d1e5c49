-- foreign_keys: off
-- 0009, tournaments (issue 20): a director over ordinary tables. No existing row changes
-- value: the accounts and the ledger are rebuilt with the same rows and ids (their CHECKs
-- learn the tournament's accounts and movements), the tables learn which tournament they
-- belong to (none, for every table before this migration).
--
-- Tournament chips are not league chips (DESIGN.md). Both kinds move by the same ledger,
-- between accounts of their own:
--   league chips:      a wallet  -> 'prize_pool' / 'bounties' (buy-ins, rebuys, add-ons,
--                      bounties) -> a wallet (prizes, bounties, refunds);
--   tournament chips:  the tournament's 'chip_bank' (it issues them, so its balance is
--                      minus every tournament chip in play) -> a player's 'stack' (the
--                      starting stack, a rebuy's, an add-on's) -> a tournament table's pot
--                      and back, as a wallet plays at a cash table; at the end the stacks
--                      go back to the bank.
-- The audit (bot/store/audit.py, bot/store/tournament_audit.py) adds each kind up apart.
-- The first line runs it with foreign keys off (a rebuild drops tables others reference);
-- the runner checks every key before the commit.

CREATE TABLE IF NOT EXISTS tournaments (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL REFERENCES leagues (guild_id),
    season_id         INTEGER NOT NULL REFERENCES seasons (id),
    -- the tournament's number in its league (#1, #2, ...)
    number            INTEGER NOT NULL CHECK (number >= 1),
    channel_id        INTEGER NOT NULL,
    host_id           INTEGER NOT NULL,
    game              TEXT NOT NULL
                      CHECK (length(game) BETWEEN 1 AND 32 AND game NOT GLOB '*[^a-z0-9_-]*'),
    status            TEXT NOT NULL
                      CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    -- the director's state (bot/tournament: its config, entries, busts, pauses), as JSON
    state             TEXT NOT NULL CHECK (json_valid(state)),
    -- what the integration keeps beside it (the draws made, computers, threads on/off)
    extra             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extra)),
    version           INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    -- when the director must look again (the start, the clock's next change, a busted
    -- player's decision time): stored like every timer, so a restart keeps it
    deadline          INTEGER,
    lobby_channel_id  INTEGER,
    lobby_message_id  INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    finished_at       INTEGER,
    UNIQUE (guild_id, number)
) STRICT;

CREATE INDEX IF NOT EXISTS tournaments_live ON tournaments (status)
    WHERE status IN ('registering', 'running');

-- the tournament's tables, by their number in it (table 1 is the final table)
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    number         INTEGER NOT NULL CHECK (number >= 1),
    table_id       INTEGER NOT NULL UNIQUE REFERENCES tables (id),
    PRIMARY KEY (tournament_id, number)
) WITHOUT ROWID, STRICT;

-- every entry's finish once the tournament is over; points (hundredths) on each player's
-- best entry only (NULL on the others, and when the league counts no points for it)
CREATE TABLE IF NOT EXISTS tournament_results (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    entry          INTEGER NOT NULL CHECK (entry >= 1),
    user_id        INTEGER NOT NULL,
    place          INTEGER NOT NULL CHECK (place >= 1),
    shared         INTEGER NOT NULL DEFAULT 1 CHECK (shared >= 1),
    prize          INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    bounties       INTEGER NOT NULL DEFAULT 0 CHECK (bounties >= 0),
    points         INTEGER CHECK (points IS NULL OR points >= 0),
    PRIMARY KEY (tournament_id, entry)
) WITHOUT ROWID, STRICT;

CREATE INDEX IF NOT EXISTS tournament_results_user ON tournament_results (user_id);

-- the league's points formula (/league setup points: points_table: points_best_of:)
CREATE TABLE IF NOT EXISTS league_points (
    guild_id    INTEGER PRIMARY KEY REFERENCES leagues (guild_id),
    formula     TEXT NOT NULL DEFAULT 'pokerstars'
                CHECK (formula IN ('pokerstars', 'fixed', 'prize')),
    fixed       TEXT NOT NULL DEFAULT '[10, 7, 5, 4, 3, 2, 1]' CHECK (json_valid(fixed)),
    best_of     INTEGER CHECK (best_of IS NULL OR best_of >= 1),
    updated_at  INTEGER NOT NULL
) STRICT;

-- A table knows its tournament. Several tables of one tournament may share its channel
-- (when the bot may not open threads there): the one-live-table-per-channel rule is for
-- the other tables; and a tournament seat is no league seat (it plays tournament chips).
-- The tables are rebuilt as in 0005 (every row and id kept) rather than altered, so that
-- this file applies again over its own tables (IF NOT EXISTS above), as 0008 does, to a
-- database set back to an older version before any tournament was played.
CREATE TABLE tables_copy AS
SELECT id, guild_id, channel_id, game, rules, status, host_id, snapshot, version, deadline,
       practice, created_at, updated_at
FROM tables;

DROP TABLE tables;

CREATE TABLE tables (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL REFERENCES leagues (guild_id),
    channel_id     INTEGER NOT NULL,
    game           TEXT NOT NULL
                   CHECK (length(game) BETWEEN 1 AND 32 AND game NOT GLOB '*[^a-z0-9_-]*'),
    rules          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    status         TEXT NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'running', 'paused', 'closed')),
    host_id        INTEGER,
    snapshot       TEXT CHECK (snapshot IS NULL OR json_valid(snapshot)),
    version        INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    deadline       INTEGER,
    practice       INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1)),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    tournament_id  INTEGER REFERENCES tournaments (id)
) STRICT;

INSERT INTO tables (id, guild_id, channel_id, game, rules, status, host_id, snapshot, version,
                    deadline, practice, created_at, updated_at)
SELECT id, guild_id, channel_id, game, rules, status, host_id, snapshot, version,
       deadline, practice, created_at, updated_at
FROM tables_copy ORDER BY id;

DROP TABLE tables_copy;

UPDATE tables SET tournament_id = (
    SELECT tt.tournament_id FROM tournament_tables tt WHERE tt.table_id = tables.id);

CREATE UNIQUE INDEX tables_one_live_per_channel ON tables (channel_id)
    WHERE status <> 'closed' AND tournament_id IS NULL;
CREATE INDEX tables_live ON tables (status) WHERE status <> 'closed';

CREATE TRIGGER league_seats_close AFTER UPDATE OF status ON tables
WHEN NEW.status = 'closed'
BEGIN
    DELETE FROM league_seats WHERE table_id = NEW.id;
END;

DROP TRIGGER IF EXISTS league_seats_sit;
CREATE TRIGGER league_seats_sit AFTER INSERT ON seats
WHEN NEW.is_computer = 0
BEGIN
    INSERT INTO league_seats (guild_id, user_id, table_id)
    SELECT t.guild_id, NEW.user_id, NEW.table_id FROM tables t
    WHERE t.id = NEW.table_id AND t.practice = 0 AND t.tournament_id IS NULL
      AND t.status <> 'closed';
END;

-- The accounts learn the tournament's: its prize pool and bounties (league chips), its
-- chip bank and each player's stack (tournament chips). Rebuilt with the same rows and
-- ids; the ledger's references are checked before the commit (PRAGMA foreign_key_check).
CREATE TABLE accounts_copy AS
SELECT id, guild_id, kind, season_id, user_id, table_id, balance, created_at FROM accounts;

DROP TABLE accounts;

CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL REFERENCES leagues (guild_id),
    kind           TEXT NOT NULL CHECK (kind IN (
                       'house', 'player', 'pot', 'prize_pool', 'bounties', 'chip_bank', 'stack')),
    season_id      INTEGER REFERENCES seasons (id),
    user_id        INTEGER,
    table_id       INTEGER REFERENCES tables (id),
    tournament_id  INTEGER REFERENCES tournaments (id),
    balance        INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    -- the issuers (the league's house, a tournament's chip bank) hold minus what they issued
    CHECK (kind IN ('house', 'chip_bank') OR balance >= 0),
    CHECK ((kind IN ('player', 'stack')) = (user_id IS NOT NULL)),
    CHECK (kind <> 'player' OR season_id IS NOT NULL),
    CHECK ((kind = 'pot') = (table_id IS NOT NULL)),
    CHECK ((kind IN ('prize_pool', 'bounties', 'chip_bank', 'stack')) = (tournament_id IS NOT NULL))
) STRICT;

INSERT INTO accounts (id, guild_id, kind, season_id, user_id, table_id, balance, created_at)
SELECT id, guild_id, kind, season_id, user_id, table_id, balance, created_at
FROM accounts_copy ORDER BY id;

DROP TABLE accounts_copy;

CREATE UNIQUE INDEX accounts_one_house ON accounts (guild_id) WHERE kind = 'house';
CREATE UNIQUE INDEX accounts_one_wallet ON accounts (season_id, user_id) WHERE kind = 'player';
CREATE UNIQUE INDEX accounts_one_pot ON accounts (table_id) WHERE kind = 'pot';
CREATE UNIQUE INDEX accounts_one_fund ON accounts (tournament_id, kind)
    WHERE kind IN ('prize_pool', 'bounties', 'chip_bank');
CREATE UNIQUE INDEX accounts_one_stack ON accounts (tournament_id, user_id) WHERE kind = 'stack';

-- The ledger learns the tournament's movements, in the words the ledger CSV and /history
-- say (bot/league/export.py): league chips 'tournament_buy_in', 'tournament_bounty' (a
-- bounty paid in), 'tournament_rebuy', 'tournament_add_on', 'prize', 'bounty' (a bounty
-- won), 'tournament_refund' (unregistering, a cancel); tournament chips
-- 'tournament_chips' (the bank to a stack) and 'tournament_chips_back' (a stack to the
-- bank at the end). Rebuilt as in 0005, ids kept.
CREATE TABLE ledger_copy AS SELECT * FROM ledger;

DROP TABLE ledger;

CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES leagues (guild_id),
    season_id     INTEGER NOT NULL REFERENCES seasons (id),
    from_account  INTEGER NOT NULL REFERENCES accounts (id),
    to_account    INTEGER NOT NULL REFERENCES accounts (id),
    amount        INTEGER NOT NULL CHECK (amount > 0),
    kind          TEXT NOT NULL CHECK (kind IN (
                      'start', 'grant', 'take', 'rebuy', 'ante', 'bring_in', 'blind', 'bet',
                      'match', 'award', 'refund', 'void', 'season_end', 'settle',
                      'tournament_buy_in', 'tournament_bounty', 'tournament_rebuy',
                      'tournament_add_on', 'prize', 'bounty', 'tournament_refund',
                      'tournament_chips', 'tournament_chips_back')),
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    actor_id      INTEGER,
    reason        TEXT,
    created_at    INTEGER NOT NULL,
    CHECK (from_account <> to_account)
) STRICT;

INSERT INTO ledger (id, guild_id, season_id, from_account, to_account, amount, kind, table_id,
                    hand_id, actor_id, reason, created_at)
SELECT id, guild_id, season_id, from_account, to_account, amount, kind, table_id,
       hand_id, actor_id, reason, created_at
FROM ledger_copy ORDER BY id;

DROP TABLE ledger_copy;

CREATE INDEX ledger_from ON ledger (from_account);
CREATE INDEX ledger_to ON ledger (to_account);
CREATE INDEX ledger_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_one_start ON ledger (to_account) WHERE kind = 'start';

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only: UPDATE refused');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only: DELETE refused');
END;
