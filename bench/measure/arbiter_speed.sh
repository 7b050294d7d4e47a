#!/usr/bin/env bash
# Speed of `threefold arbiter` on a large PGN: 10,000 generated games (bench/ci/arbiter_crosscheck.py)
# repeated 10 times = 100,000 games. Prints games/s, positions/s (CPU time) and the peak memory
# of each engine given, all on the same games (compare builds within one run).
#   bash bench/measure/arbiter_speed.sh [engine ...]     (needs `pip install chess` and GNU time)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -eq 0 ]; then set -- target/release/threefold; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/ci/arbiter_crosscheck.py --games 10000 --seed 11 --engine "$1" --keep "$work/10k.pgn" >/dev/null
for _ in $(seq 10); do cat "$work/10k.pgn"; done >"$work/100k.pgn"
for engine in "$@"; do
    # Exit status 1 only says that some generated games carry a wrong result tag or void moves.
    /usr/bin/time -f "%U %M" -o "$work/time" "$engine" arbiter --json "$work/100k.pgn" \
        >"$work/out.jsonl" 2>/dev/null || [ $? -eq 1 ]
    read -r user_s max_kib < <(tail -n 1 "$work/time")
    python3 - "$engine" "$work/out.jsonl" "$user_s" "$max_kib" <<'PY'
import json, sys
games = plies = 0
for line in open(sys.argv[2]):
    games += 1
    plies += json.loads(line)['plies']
user, kib = float(sys.argv[3]), int(sys.argv[4])
positions = plies + games
print(f'{sys.argv[1]}: {games} games, {positions} positions in {user:.2f} s of CPU: '
      f'{games / user:,.0f} games/s, {positions / user:,.0f} positions/s, peak RSS {kib / 1024:.1f} MiB')
PY
done
