# syntax=docker/dockerfile:1
# Home Game: the Discord bot in a slim image, dependencies built in a separate stage.

FROM python:3.11-slim AS build
WORKDIR /src
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN /opt/venv/bin/pip install .

FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    HOMEGAME_DATABASE__PATH=/data/homegame.db \
    HOMEGAME_BACKUP__DIR=/data/backups
RUN groupadd --system --gid 10001 homegame \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data homegame \
    && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /opt/venv /opt/venv
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
# SIGTERM lets the bot finish the current write and close the database cleanly.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
