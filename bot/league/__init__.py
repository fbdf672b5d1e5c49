"""Pure helpers of the chip league (no Discord, no database): leaderboard ranking and
pages, the ledger's CSV export, and hand replays that show a viewer only what they saw."""
