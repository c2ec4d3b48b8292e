#!/usr/bin/env bash
# The agent-strength and search-speed runs of docs/benchmarks.md, all at once on a machine with
# 16 cores (one process per core): the speed figures first, alone, then the tournaments side by
# side, each stopped after SECONDS and reduced to whole blocks of seatings.
#   OUT=results benchmarks/strength.sh      (PYTHONPATH must reach parlour, rich and click)
set -u
cd "$(dirname "$0")"
out=${OUT:-results}; mkdir -p "$out/rows"
seconds=${SECONDS_PER_RUN:-420}
search=${SEARCH:-ismcts:time=0.5,rollout=heuristic,tree=1,margin=8,keep=1.5}
search_qu=${SEARCH_QU:-ismcts:time=0.5}
py=${PYTHON:-python3}

$py bench_agents.py speed --runs ${SPEED_RUNS:-3} > "$out/speed.txt" 2>&1
$py bench_playouts.py --game quisquilian --runs ${SPEED_RUNS:-3} --seconds 2 > "$out/playouts.txt" 2>&1

run() {  # name workers game [args...]
  local name=$1 workers=$2; shift 2
  $py bench_agents.py strength "$@" --workers "$workers" --seconds "$seconds" --out "$out/rows/$name.csv" \
    > "$out/$name.txt" 2>&1
}
run pr 3 psalter-row --agents random,heuristic,ismcts:iterations=1000,clairvoyant --games 2000 &
run dg2 4 decktet-golf --players 2 --option rounds=1 --agents "$search,heuristic" --games 2000 &
run dg4 4 decktet-golf --players 4 --option rounds=1 --agents "$search,heuristic" --games 2000 &
run qu4 4 quisquilian --players 4 --agents "$search_qu,heuristic" --games 2000 &
{
  for game in "decktet-golf --players 2" "decktet-golf --players 4" "quisquilian --players 4"; do
    $py bench_agents.py strength $game --agents heuristic,random --games 300 --workers 1 --seconds 120
  done
} > "$out/heuristic.txt" 2>&1 &
wait
tar -czf "$out/rows.tar.gz" -C "$out" rows && rm -r "$out/rows"
