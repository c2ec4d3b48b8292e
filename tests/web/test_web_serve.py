"""``parlour serve`` for real: uvicorn in a subprocess, HTTP with httpx and a websocket
with the ``websockets`` library, as a browser would reach it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from browserkit import free_port
from click.testing import CliRunner
from websockets.sync.client import connect

from parlour.cli import cli


def test_serve_prints_its_address_and_serves_the_table(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "served.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and str(db) in line
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):  # uvicorn binds just after the line is printed
            try:
                games = httpx.get(f"{base}/api/games", timeout=2).json()
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert len(games["games"]) == 3
        table = httpx.post(f"{base}/api/tables", json={"game": "decktet-golf", "seats": ["human", "random"]}).json()
        token = table["seats"][0]["invite"].split("#token=")[1]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 0
            state = json.loads(ws.recv(timeout=10))
            while state["current_player"] != 0:
                state = json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"type": "act", "action": state["legal"][0], "state_id": state["state_id"]}))
            after = json.loads(ws.recv(timeout=10))
            assert after["state_id"] == state["state_id"] + 1 and after["log"][-1]["action"] == state["legal"][0]
        assert db.exists()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)


def test_serve_help_and_bad_arguments() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "--bot-delay" in result.output and "parlour.db" in result.output
    result = runner.invoke(cli, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "70000" in result.output
    result = runner.invoke(cli, ["serve", "--bot-delay", "-1"])
    assert result.exit_code == 2


def test_a_port_in_use_is_a_clear_error_before_anything_is_served(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1 port {port}" in result.output and "--port" in result.output
    assert "parlour web table at" not in result.output
