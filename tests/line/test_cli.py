"""``makruk-bot line`` as an operator runs it: a real process, settings from the environment."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
SECRET_VALUE = "s3cret-channel-secret-value"
TOKEN_VALUE = "t0ken-access-token-value"


def environment(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LINE_", "PUBLIC_BASE_URL", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings)
    return env


async def run(*args: str, env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, env=env, cwd=cwd,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def test_missing_settings_end_with_status_2_and_one_line_naming_them(tmp_path):
    env = environment(LINE_CHANNEL_ACCESS_TOKEN=TOKEN_VALUE, DATABASE_PATH=str(tmp_path / "bot.db"))
    process = await run("line", env=env, cwd=tmp_path)  # no .env in tmp_path
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    message = err.decode()
    assert message.count("\n") == 1 and "Traceback" not in message
    assert "LINE_CHANNEL_SECRET" in message and "PUBLIC_BASE_URL" in message
    assert "LINE_CHANNEL_ACCESS_TOKEN" not in message and TOKEN_VALUE not in message + out.decode()
    assert not (tmp_path / "bot.db").exists()


async def test_the_server_answers_health_checks_refuses_strangers_and_stops_on_sigterm(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = environment(LINE_CHANNEL_SECRET=SECRET_VALUE, LINE_CHANNEL_ACCESS_TOKEN=TOKEN_VALUE,
                      PUBLIC_BASE_URL="https://makruk.example", LINE_API_BASE_URL="http://127.0.0.1:9",
                      DATABASE_PATH=str(tmp_path / "bot.db"))
    process = await run("line", "--host", "127.0.0.1", "--port", str(port), env=env, cwd=tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(300):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/") as response:
                        assert response.status == 200
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("the server did not start")
            async with http.post(f"http://127.0.0.1:{port}/callback", data=b'{"events": []}') as response:
                assert response.status == 400
        process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, err.decode()
        assert SECRET_VALUE not in (out + err).decode() and TOKEN_VALUE not in (out + err).decode()
        assert (tmp_path / "line-images").is_dir()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
