"""The chip league's helpers: leaderboard ranking and pages, the ledger's CSV export, hand
replays that show a viewer only what they saw, the night's report and settle-up, and the
statistics (per-hand facts, all-in equity, the glossary) and hand-history exports
(PokerStars' format). All pure (no Discord, no database) but :mod:`bot.league.collect`,
which reads a season's hands from the store for the statistics."""
