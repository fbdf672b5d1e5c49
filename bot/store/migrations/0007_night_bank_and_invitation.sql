-- 0007: the night around any table (issue 21): the bot as the bank, the settle-up to the
-- last cent, and the invitation. Only new tables and new columns: no row of an existing
-- table is rewritten, and the ledger is untouched (a bank night's money never moves league
-- chips; its book is night_entries, append-only like the ledger).

-- The league's time zone (an IANA name such as Europe/Berlin, checked by zoneinfo in the
-- code): how `/night schedule when:2026-12-05 20:00` is read. NULL: UTC.
ALTER TABLE leagues ADD COLUMN timezone TEXT
    CHECK (timezone IS NULL OR length(timezone) BETWEEN 1 AND 64);

-- An invitation: `/night schedule`, its Discord scheduled event, the RSVP post and the
-- stored time of the DM reminder (an hour before), which survives restarts.
CREATE TABLE night_schedules (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL REFERENCES leagues (guild_id),
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER,
    event_id     INTEGER,
    title        TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 100),
    location     TEXT NOT NULL CHECK (length(location) BETWEEN 1 AND 100),
    starts_at    INTEGER NOT NULL,
    ends_at      INTEGER NOT NULL,
    remind_at    INTEGER NOT NULL,
    reminded_at  INTEGER,
    created_by   INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    CHECK (ends_at > starts_at AND remind_at <= starts_at)
) STRICT;

CREATE INDEX night_schedules_due ON night_schedules (remind_at) WHERE reminded_at IS NULL;

-- In / Maybe / Out, one answer per member (a new click replaces it); reminded_at: the DM
-- went out, so a restart in the middle of the reminders does not send it twice.
CREATE TABLE night_rsvps (
    schedule_id  INTEGER NOT NULL REFERENCES night_schedules (id),
    user_id      INTEGER NOT NULL,
    answer       TEXT NOT NULL CHECK (answer IN ('in', 'maybe', 'out')),
    answered_at  INTEGER NOT NULL,
    reminded_at  INTEGER,
    PRIMARY KEY (schedule_id, user_id)
) WITHOUT ROWID, STRICT;

-- A night is of a kind: the bot's tables (as before 0007), a bank for a game played
-- anywhere, or both; started on a scheduled night's day, it links the invitation.
ALTER TABLE nights ADD COLUMN kind TEXT NOT NULL DEFAULT 'tables'
    CHECK (kind IN ('tables', 'bank', 'both'));
ALTER TABLE nights ADD COLUMN schedule_id INTEGER REFERENCES night_schedules (id);

-- A buy-in or cash-out a member asked for, waiting for the host's (or an admin's)
-- Approve or Refuse on its post; decided once (the guarded UPDATE ... WHERE status =
-- 'pending' refuses a second decision).
CREATE TABLE night_requests (
    id           INTEGER PRIMARY KEY,
    night_id     INTEGER NOT NULL REFERENCES nights (id),
    user_id      INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('buyin', 'cashout')),
    chips        INTEGER NOT NULL CHECK (chips > 0),
    status       TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'approved', 'refused', 'withdrawn')),
    decided_by   INTEGER,
    decided_at   INTEGER,
    channel_id   INTEGER,
    message_id   INTEGER,
    created_at   INTEGER NOT NULL,
    CHECK ((status = 'pending') = (decided_at IS NULL))
) STRICT;

-- A ledger file imported from another site (`/night import`): its players as parsed, the
-- members they were matched to (the select menu fills in the rest), booked once complete.
CREATE TABLE night_imports (
    id           INTEGER PRIMARY KEY,
    night_id     INTEGER NOT NULL REFERENCES nights (id),
    filename     TEXT NOT NULL,
    sha256       TEXT NOT NULL CHECK (length(sha256) = 64),
    units        TEXT NOT NULL CHECK (units IN ('chips', 'cents', 'money')),
    players      TEXT NOT NULL CHECK (json_valid(players)),
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'booked')),
    actor_id     INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    booked_at    INTEGER,
    UNIQUE (night_id, sha256)
) STRICT;

-- The names another site's ledger gives a member, learned from the select menu, so the
-- next import matches them by itself.
CREATE TABLE import_names (
    guild_id     INTEGER NOT NULL,
    source       TEXT NOT NULL,
    player_key   TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, source, player_key)
) WITHOUT ROWID, STRICT;

-- The night's bank book: every buy-in and cash-out in chips (money at the league's chip
-- value is converted exactly), with who recorded it. A correction is a new entry naming
-- the one it corrects, with the difference (which may be negative) and a reason; never an
-- edit. 'unaccounted': what `/night end force:` found missing (or over), one entry.
CREATE TABLE night_entries (
    id           INTEGER PRIMARY KEY,
    night_id     INTEGER NOT NULL REFERENCES nights (id),
    user_id      INTEGER,
    kind         TEXT NOT NULL CHECK (kind IN ('buyin', 'cashout', 'unaccounted')),
    chips        INTEGER NOT NULL CHECK (chips <> 0),
    corrects     INTEGER REFERENCES night_entries (id),
    request_id   INTEGER REFERENCES night_requests (id),
    import_id    INTEGER REFERENCES night_imports (id),
    actor_id     INTEGER NOT NULL,
    reason       TEXT CHECK (reason IS NULL OR length(reason) <= 500),
    created_at   INTEGER NOT NULL,
    CHECK ((kind = 'unaccounted') = (user_id IS NULL)),
    CHECK (chips > 0 OR corrects IS NOT NULL OR kind = 'unaccounted'),
    CHECK (corrects IS NULL OR reason IS NOT NULL)
) STRICT;

CREATE INDEX night_entries_night ON night_entries (night_id);
CREATE UNIQUE INDEX night_entries_one_per_request ON night_entries (request_id)
    WHERE request_id IS NOT NULL;

CREATE TRIGGER night_entries_no_update BEFORE UPDATE ON night_entries
BEGIN
    SELECT RAISE(ABORT, 'the bank book is append-only: UPDATE refused');
END;

CREATE TRIGGER night_entries_no_delete BEFORE DELETE ON night_entries
BEGIN
    SELECT RAISE(ABORT, 'the bank book is append-only: DELETE refused');
END;

-- What the night spent (pizza, drinks, the venue): paid by one member, shared evenly by
-- the listed members (JSON list of ids) or, NULL, by everyone of the night at its end.
CREATE TABLE night_expenses (
    id           INTEGER PRIMARY KEY,
    night_id     INTEGER NOT NULL REFERENCES nights (id),
    what         TEXT NOT NULL CHECK (length(what) BETWEEN 1 AND 100),
    chips        INTEGER NOT NULL CHECK (chips > 0),
    paid_by      INTEGER NOT NULL,
    shared_by    TEXT CHECK (shared_by IS NULL OR (json_valid(shared_by)
                                                   AND json_array_length(shared_by) >= 1)),
    actor_id     INTEGER NOT NULL,
    created_at   INTEGER NOT NULL
) STRICT;

CREATE TRIGGER night_expenses_no_update BEFORE UPDATE ON night_expenses
BEGIN
    SELECT RAISE(ABORT, 'expenses are append-only: UPDATE refused');
END;

CREATE TRIGGER night_expenses_no_delete BEFORE DELETE ON night_expenses
BEGIN
    SELECT RAISE(ABORT, 'expenses are append-only: DELETE refused');
END;

-- How each member likes to be paid (`/pay handle:`): free text, shown only in the
-- settle-ups they take part in.
CREATE TABLE pay_handles (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    handle       TEXT NOT NULL CHECK (length(handle) BETWEEN 1 AND 200),
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID, STRICT;

-- Each transfer of a settle-up, numbered as its post lists them: marked Paid by its payer
-- or payee, or carried into a later night's settle-up (`carry_open:`). The settlements'
-- transfers JSON stays as it was.
CREATE TABLE settle_transfers (
    id            INTEGER PRIMARY KEY,
    settlement_id INTEGER NOT NULL REFERENCES settlements (id),
    guild_id      INTEGER NOT NULL,
    number        INTEGER NOT NULL CHECK (number >= 1),
    payer         INTEGER NOT NULL,
    payee         INTEGER NOT NULL,
    chips         INTEGER NOT NULL CHECK (chips > 0),
    paid_at       INTEGER,
    paid_by       INTEGER,
    carried_into  INTEGER REFERENCES settlements (id),
    UNIQUE (settlement_id, number),
    CHECK (payer <> payee),
    CHECK ((paid_at IS NULL) = (paid_by IS NULL)),
    CHECK (paid_at IS NULL OR carried_into IS NULL)
) STRICT;

CREATE INDEX settle_transfers_open ON settle_transfers (guild_id)
    WHERE paid_at IS NULL AND carried_into IS NULL;

-- The settle-ups recorded before 0007 keep their transfers, now one row each: open (the
-- bot never knew whether the money changed hands; their payer or payee marks them Paid).
INSERT INTO settle_transfers (settlement_id, guild_id, number, payer, payee, chips)
SELECT s.id, s.guild_id, CAST(j.key AS INTEGER) + 1,
       json_extract(j.value, '$.payer'), json_extract(j.value, '$.payee'),
       json_extract(j.value, '$.chips')
FROM settlements s, json_each(s.transfers) j
ORDER BY s.id, j.key;

-- Where a settle-up was posted (the Paid buttons' message), and the night's other
-- figures as settled (bank, expenses, unaccounted) ride in settlements.results.
ALTER TABLE settlements ADD COLUMN channel_id INTEGER;
ALTER TABLE settlements ADD COLUMN message_id INTEGER;
