"""Load on the web table: many concurrent tables over real websockets on loopback.

``parlour serve`` runs in a subprocess (uvicorn, SQLite on a temporary file, every
action committed before it is broadcast). Every seat of every table is a benchmark
client (the ``websockets`` library) that plays a random legal move whenever it is its
turn, so each action makes the full round trip: ``act`` sent -> the server checks it,
commits it and broadcasts the new state to every seat of the table -> the actor
receives its next ``state``. That time is an action's latency. ``--tables`` tables are
kept going at once (a finished table is replaced by a new one) for ``--seconds``;
figures: actions per second, and the median and 99th percentile latency. Each is the
median of ``--runs`` runs. Before each run the fixed pure-Python baseline loop of
bench_playouts.py is timed for a second, so that runs on a busier or quieter machine can
be compared (actions per baseline kilo-iteration).

    .venv/bin/python benchmarks/bench_web.py --tables 100 --seconds 20 --runs 3
    .venv/bin/python benchmarks/bench_web.py --tables 100 --hostile 20 --seconds 20 --runs 3

With ``--hostile N`` N more clients run issue 17's attacks over and over meanwhile (malformed,
oversized and cross-site requests, unbounded bots and matches, replays of a 5,000-action game,
a 100 kB notation, 5,000-digit numbers, junk frames): the honest tables' latency is the figure.
Any attack the server accepts fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from bench_playouts import baseline

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
from test_web_limits import store_finished_game  # noqa: E402 - the tests' way to store a long finished game

LONG_TABLE = "LongGame1"
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

#: The tables played, round robin: each game with every seat a client.
TABLES = [
    {"game": "psalter-row", "seats": ["human"]},
    {"game": "decktet-golf", "seats": ["human", "human"], "options": {"rounds": 1}},
    {"game": "quisquilian", "seats": ["human", "human", "human"]},
]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0",
               "--tables-per-minute", "100000"]  # every client of the load runs on this one address
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    server.stdout.readline()  # the address line
    for _ in range(200):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2)
            return server
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


class Run:
    """Latencies (seconds) and counts of one run."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.latencies: list[float] = []
        self.games = 0
        self.errors: list[dict[str, Any]] = []
        self.attacks: dict[str, int] = {}  # hostile requests made, by what and the answer's code


async def play_seat(url: str, token: str, rng: random.Random, run: Run) -> None:
    """One seat's client: join, then act at random whenever it is this seat's turn."""
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        acted_on = -1
        while True:
            try:  # a seat whose table stopped at the deadline is not left waiting
                text = await asyncio.wait_for(ws.recv(), timeout=max(run.deadline - time.perf_counter(), 0) + 10)
            except (TimeoutError, ConnectionClosed):
                return
            message = json.loads(text)
            if message["type"] == "error":
                run.errors.append(message)
                return
            if message["type"] != "state":
                continue
            if sent_at is not None and message["state_id"] > acted_on:
                run.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["end"] is not None or time.perf_counter() > run.deadline:
                return
            if message["legal"] and message["state_id"] > acted_on and sent_at is None:
                acted_on = message["state_id"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(message["legal"]),
                                          "state_id": acted_on}))


async def keep_a_table(http: httpx.AsyncClient, base: str, ws_base: str, slot: int, run: Run) -> None:
    """Play tables one after another in this slot until the deadline."""
    rng = random.Random(slot)
    n = slot
    while time.perf_counter() < run.deadline:
        body = TABLES[n % len(TABLES)]
        n += 1
        table = (await http.post(f"{base}/api/tables", json=body)).json()
        url = f"{ws_base}/ws/tables/{table['id']}"
        tokens = [s["invite"].split("#token=")[1] for s in table["seats"]]
        await asyncio.gather(*(play_seat(url, t, random.Random(rng.random()), run) for t in tokens))
        if time.perf_counter() < run.deadline:
            run.games += 1


# -- hostile clients: the attacks of issue 17, over and over while the honest tables play ------------
def _attack_bodies() -> list[tuple[str, bytes, dict[str, str]]]:
    """POST /api/tables bodies that the server must refuse cheaply: (name, body, headers)."""
    json_type = {"Content-Type": "application/json"}
    return [
        ("deep nesting", b"[" * 100_000, json_type),
        ("huge integer", b'{"game": "decktet-golf", "seats": ["random", "random"], "options": {"target": '
         + b"9" * 4300 + b"}}", json_type),
        ("1 MB body", b'{"game": "' + b"x" * 1_000_000 + b'"}', json_type),
        ("cross-site text/plain", b'{"game": "psalter-row", "seats": ["human"]}',
         {"Content-Type": "text/plain", "Origin": "http://evil.example"}),
        ("control characters in a name", json.dumps({"game": "psalter-row", "seats": ["human"],
                                                      "names": ["a\u202e\u0000b"]}).encode(), json_type),
        ("endless match", json.dumps({"game": "decktet-golf", "seats": ["random"] * 5,
                                      "options": {"target": 10**9}}).encode(), json_type),
        ("unbounded bot", json.dumps({"game": "decktet-golf", "seats": ["human", "ismcts:iterations=100000000"]}).encode(),
         json_type),
    ]


async def hostile_http(http: httpx.AsyncClient, base: str, run: Run, long_table: str) -> None:
    """Malformed, oversized, cross-site and unbounded requests, and replays of a long game."""
    bodies = _attack_bodies()
    n = 0
    while time.perf_counter() < run.deadline:
        name, body, headers = bodies[n % len(bodies)]
        n += 1
        with contextlib.suppress(httpx.HTTPError):
            answer = await http.post(f"{base}/api/tables", content=body, headers=headers)
            run.attacks[f"{name}: {answer.status_code}"] = run.attacks.get(f"{name}: {answer.status_code}", 0) + 1
            if answer.status_code == 201:
                run.errors.append({"accepted": name})
            answer = await http.get(f"{base}/api/tables/{long_table}/replay", params={"start": (n * 997) % 5000})
            run.attacks[f"replay page: {answer.status_code}"] = run.attacks.get(f"replay page: {answer.status_code}", 0) + 1


async def hostile_socket(http: httpx.AsyncClient, base: str, ws_base: str, run: Run) -> None:
    """A seat that sends what it should not: junk, 5,000-digit numbers, oversized frames, a run
    longer than any legal one, and last a 100 kB run (which the websocket layer closes on)."""
    frames = [
        '{"type": "act", "action": "stop", "state_id": ' + "9" * 5000 + "}",
        "[" * 50_000,
        json.dumps({"type": "nonsense" * 900}),
        json.dumps({"type": "log", "from": 1}),
        json.dumps({"type": "act", "action": ("run " + "5H@3 6H 7H@3 8H " * 500)[:7000], "state_id": 0}),
    ] * 3 + [json.dumps({"type": "act", "action": "run " + " ".join(["5H@3"] * 20_000), "state_id": 0})]
    while time.perf_counter() < run.deadline:
        table = (await http.post(f"{base}/api/tables", json={"game": "quisquilian", "seats": ["human", "random", "random"]})).json()
        token = table["seats"][0]["invite"].split("#token=")[1]
        with contextlib.suppress(OSError, TimeoutError, ConnectionClosed):
            async with connect(f"{ws_base}/ws/tables/{table['id']}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                for frame in frames:
                    if time.perf_counter() > run.deadline:
                        break
                    await ws.send(frame)
                    while True:  # the answer to this frame (the bots' states come between)
                        answer = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                        if answer["type"] in ("error", "log"):
                            break
                    key = f"socket {answer['type']} {answer.get('code', '')}".strip()
                    run.attacks[key] = run.attacks.get(key, 0) + 1
        with contextlib.suppress(httpx.HTTPError):
            await http.delete(f"{base}/api/tables/{table['id']}")  # without the creator's secret: refused


async def one_run(port: int, tables: int, seconds: float, hostile: int = 0, long_table: str = "") -> dict[str, float]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    run = Run(time.perf_counter() + seconds)
    started = time.perf_counter()
    async with httpx.AsyncClient(timeout=60) as http:
        attackers = [hostile_http(http, base, run, long_table) if i % 2 else hostile_socket(http, base, ws_base, run)
                     for i in range(hostile)]
        await asyncio.gather(*(keep_a_table(http, base, ws_base, slot, run) for slot in range(tables)), *attackers)
    elapsed = time.perf_counter() - started
    if run.errors:
        raise RuntimeError(f"the server refused a benchmark action: {run.errors[0]}")
    lat = sorted(run.latencies)
    return {
        "actions": len(lat),
        "actions_per_s": len(lat) / elapsed,
        "median_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "games": run.games,
        "attacks": sum(run.attacks.values()),
        "answers": run.attacks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=3, help="runs (each on a fresh server and database)")
    parser.add_argument("--hostile", type=int, default=0,
                        help="hostile clients running issue 17's attacks meanwhile (half HTTP, half websocket)")
    args = parser.parse_args()
    results = []
    for i in range(args.runs):
        base_kit = baseline(1.0) / 1000
        with tempfile.TemporaryDirectory() as tmp:
            port, db = free_port(), Path(tmp) / "bench.db"
            if args.hostile:  # a finished game of over 5,000 actions for the replay attacks
                store_finished_game(db, LONG_TABLE, "decktet-golf", {"players": 5, "rounds": 25})
            server = start_server(db, port)
            try:
                server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
                result = asyncio.run(one_run(port, args.tables, args.seconds, args.hostile, LONG_TABLE))
                result["server_cpu_ms"] = 1000 * (cpu_seconds(server.pid) - server_cpu) / result["actions"]
                result["client_cpu_ms"] = 1000 * (time.process_time() - client_cpu) / result["actions"]
            finally:
                server.send_signal(signal.SIGINT)
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    raise RuntimeError("the server did not stop within 30 s of Ctrl+C") from None
        result["baseline_kit_s"] = base_kit
        result["actions_per_kit"] = result["actions_per_s"] / base_kit
        results.append(result)
        print(f"run {i + 1}: {result['actions']} actions, {result['actions_per_s']:.0f} actions/s, "
              f"median {result['median_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, {result['games']} games finished, "
              f"baseline {base_kit:,.0f} kit/s, CPU per action: server {result['server_cpu_ms']:.2f} ms, "
              f"clients {result['client_cpu_ms']:.2f} ms, {result['attacks']} hostile requests refused", flush=True)
        if result["answers"]:
            print("  hostile requests, by answer: " + ", ".join(f"{k} x{v}" for k, v in sorted(result["answers"].items())))
    median = {key: statistics.median(r[key] for r in results) for key in results[0] if key != "answers"}
    print(f"median of {args.runs} runs, {args.tables} tables: {median['actions_per_s']:.0f} actions/s, "
          f"latency median {median['median_ms']:.1f} ms, p99 {median['p99_ms']:.1f} ms, "
          f"baseline {median['baseline_kit_s']:,.0f} kit/s, {median['actions_per_kit']:.3f} actions per baseline kit, "
          f"CPU per action: server {median['server_cpu_ms']:.2f} ms, clients {median['client_cpu_ms']:.2f} ms")


if __name__ == "__main__":
    main()
