"""Operations: logging set-up (with the token masked), the daily database backup, and the
health check's reading of the database and the bot's heartbeat file."""
