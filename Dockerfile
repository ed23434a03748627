# The Makruk bot: `docker compose up` (compose.yaml) runs it beside its PostgreSQL database.
# With no arguments it serves every platform whose tokens the environment sets (LINE on port 8080).
FROM python:3.11-slim-bookworm

# The system packages of scripts/setup-env.sh but PostgreSQL, whose server only the tests need:
# Fairy-Stockfish plays levels 5-8; FriBiDi lays out Thai and Khmer text in the board pictures.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fairy-stockfish libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY makruk makruk
COPY renderers renderers
COPY storage storage
COPY bot bot
RUN pip install . && rm -rf /src

# Not root: the bot needs nothing but its data folder (the SQLite file, or the picture cache).
RUN useradd --create-home --uid 10001 makruk && mkdir /data && chown makruk /data
USER makruk
WORKDIR /data
VOLUME /data
ENV DATABASE_PATH=/data/makruk.db

EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4); sys.exit(0)"]
ENTRYPOINT ["makruk-bot"]
