-- 0011, a member's own settings (issue 22 item 3): how the bot tells them it is their turn
-- (`/settings turn_ping: off|dm|mention`, `dm` by default), and where their last turn ping
-- is (its channel and message), so the previous ping is deleted when the next is sent, also
-- after a restart: at most one stays. One row per member of a server, made the first time
-- they change a setting or are pinged; no row reads as the defaults.
-- IF NOT EXISTS: applying it again (a database whose version was set back) changes nothing.
CREATE TABLE IF NOT EXISTS member_settings (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    turn_ping       TEXT NOT NULL DEFAULT 'dm'
                    CHECK (turn_ping IN ('off', 'dm', 'mention')),
    ping_channel_id INTEGER,
    ping_message_id INTEGER,
    updated_at      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK ((ping_channel_id IS NULL) = (ping_message_id IS NULL))
) STRICT;
