"""The Dockerfile, compose.yaml and .env.example agree with the code (they cannot be built here:
these read them as text, without a YAML library)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from bot.adapters.line.main import DEFAULT_PORT
from bot.config import SETTING_NAMES, Settings, database_url

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continued lines joined
COMPOSE = (ROOT / "compose.yaml").read_text()


def find(pattern: str, text: str) -> str:
    """The first group of ``pattern``'s first match in ``text`` (multi-line), which must exist."""
    match = re.search(pattern, text, re.M)
    assert match, f"{pattern!r} not found"
    return match.group(1)


def test_env_example_lists_every_setting_the_code_reads():
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", example, re.M))
    assert set(SETTING_NAMES) <= listed, set(SETTING_NAMES) - listed


def test_settings_read_no_name_missing_from_the_list():
    # from_env raises KeyError when it reads a name SETTING_NAMES lacks: one reading proves the list whole.
    assert Settings.from_env(dict.fromkeys(SETTING_NAMES, ""), None) == Settings.from_env({}, None)


def test_the_image_installs_the_system_packages_of_the_setup_script_but_postgresql():
    script = (ROOT / "scripts" / "setup-env.sh").read_text()
    wanted = set(find(r"^SYSTEM_PACKAGES=\(([^)]*)\)", script).split()) - {"postgresql"}
    installs = re.findall(r"apt-get install ([^&\n]+)", DOCKERFILE)
    assert len(installs) == 1
    installed = {word for word in installs[0].split() if not word.startswith("-")}
    assert installed == wanted


def test_the_image_runs_the_bot_as_a_user_not_root():
    assert re.search(r"^FROM python:3\.11-slim-bookworm$", DOCKERFILE, re.M)
    users = re.findall(r"^USER\s+(\S+)", DOCKERFILE, re.M)
    assert users and users[-1] not in ("root", "0")
    assert DOCKERFILE.rindex("USER") > DOCKERFILE.rindex("RUN ")  # nothing runs as root after it
    assert re.search(r'^ENTRYPOINT \["makruk-bot"\]$', DOCKERFILE, re.M)


def test_the_image_exposes_the_line_port_and_checks_healthz_there():
    assert re.findall(r"^EXPOSE (\d+)$", DOCKERFILE, re.M) == [str(DEFAULT_PORT)]
    healthcheck = DOCKERFILE[DOCKERFILE.index("HEALTHCHECK"):]
    assert f"http://127.0.0.1:{DEFAULT_PORT}/healthz" in healthcheck.split("\nENTRYPOINT")[0]


def services(compose: str) -> dict[str, str]:
    """Each service's block of compose.yaml, by name (the keys two spaces in under ``services:``)."""
    body = find(r"^services:\n((?:[ #].*\n|\n)*)", compose)
    parts = re.split(r"^  ([a-z][\w-]*):\n", body, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_compose_runs_the_bot_on_postgresql_with_the_env_file():
    found = services(COMPOSE)
    assert set(found) == {"db", "bot"}
    bot = found["bot"]
    assert re.search(r"^    build: \.$", bot, re.M)
    assert re.search(r"^    env_file: \.env$", bot, re.M)
    url = find(r"^      DATABASE_URL: (\S+)$", bot)
    url = re.sub(r"\$\{(\w+):-([^}]*)\}", r"\2", url)  # compose's ${NAME:-default}, as unset
    assert database_url(url) == url and url.startswith("postgresql://")
    parts = urlsplit(url)
    assert parts.hostname == "db" and parts.port == 5432
    assert re.search(r"^    depends_on:\n      db:\n        condition: service_healthy$", bot, re.M)
    assert f'"{DEFAULT_PORT}:{DEFAULT_PORT}"' in bot


def test_compose_database_is_postgres_15_with_a_volume_and_a_healthcheck():
    db = services(COMPOSE)["db"]
    assert re.search(r"^    image: postgres:15$", db, re.M)
    assert re.search(r"^    volumes:\n      - [\w-]+:/var/lib/postgresql/data$", db, re.M)
    assert re.search(r"^    healthcheck:\n      test: .*pg_isready", db, re.M)
    user = find(r"^      POSTGRES_USER: (\w+)$", db)
    name = find(r"^      POSTGRES_DB: (\w+)$", db)
    url = find(r"^      DATABASE_URL: (\S+)$", services(COMPOSE)["bot"])
    assert url.startswith(f"postgresql://{user}:") and url.endswith(f"/{name}")


def test_compose_is_indented_with_spaces_only():
    assert "\t" not in COMPOSE and all(len(line) - len(line.lstrip()) in range(0, 9, 2)
                                       for line in COMPOSE.splitlines())


def test_the_build_context_leaves_out_the_env_file_and_the_databases():
    patterns = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line and line[0] != "#"]
    assert patterns[0] == "*"  # everything out, then only what the image copies back in
    assert not any(p.startswith("!") and (".env" in p or ".db" in p or ".venv" in p) for p in patterns)
    copied = set(re.findall(r"^COPY (\S+)", DOCKERFILE, re.M))
    assert {f"!{name}" for name in copied} <= set(patterns)
