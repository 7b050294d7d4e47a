#!/usr/bin/env python3
"""The proof-suite gate: what a search or network change must keep of the repetition side.

    python3 bench/measure/proof_suite.py --gate --base MAIN_BINARY --engine CANDIDATE \
        [--nodes 1500000] [--cache DIR] [--no-stockfish] [--json rows.json]

The rules (docs/strength.md, "The proof-suite gate"), every search limited by nodes, one thread,
so that each number is the same on any machine and under any load:

- **Core (hard).** The perpetual cases main proves within a tenth of the budget in three runs
  (Hash 8, 16 and 64, bare FEN and game history), each run a search of the whole budget, so
  that a proof is a 0.00 that holds to its end (a search stopped at a tenth of the budget
  counts a 0.00 it happens to end on): the candidate proves every one of them within the
  budget (Hash 64, both modes). No false perpetual shown as 0.00, every escapable
  case held, and the seed behaviour cases (tests/data/seed-behaviour.jsonl, 1 s a move) all
  pass.
- **Tail (soft).** The other perpetual cases. Each case costs its nodes to 0.00 at the budget,
  else at four times the budget, else eight budgets. The candidate fails when a tail case main
  proves at 1x is proven by it not even at 4x, or when the tail's geometric mean cost grows by
  more than a tenth.
- **Against Stockfish.** The median, over the perpetual cases, of Threefold's nodes to 0.00 over
  Stockfish's (Stockfish at the same node budget; a case never proven counts as infinitely
  slow) must not grow by more than a tenth in either mode.

Each lost core or tail case is printed with both builds' nodes and the candidate's last score
and move: classify it before deciding (docs/strength.md says how). Exit status 0 when the gate
passes, 1 when it does not. `--cache DIR` keeps main's runs (keyed by the binary's bench
signature) so that the next candidate against the same main only runs itself. `--json FILE`
writes every case's row (nodes to 0.00, last score and move, for main, the candidate and
Stockfish) so that a lost or won case can be read afterwards.
"""
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys

import chess
import chess.engine

from proof_suite import run, holds

HASHES_FOR_CORE = (8, 16, 64)
MODES = ('bare', 'history')
# Growth of the tail's geometric mean cost, and of the median ratio to Stockfish, that a
# candidate may show: single cases move by chance with any change to the tree.
TOLERANCE = 1.10
SEED_BEHAVIOUR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests',
                              'data', 'seed-behaviour.jsonl')


def signature(binary):
    """The binary's bench node count and a hash of its file: the key of cached runs."""
    out = subprocess.run([binary, 'bench'], capture_output=True, text=True, check=True).stdout
    with open(binary, 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    return f"{out.strip().splitlines()[-1].split()[0]}-{digest}"


def measure(binary, cases, nodes, hash_mb, kinds):
    """{(id, mode): (nodes to 0.00 or None, last score, best move)} for the cases of `kinds`."""
    engine = chess.engine.SimpleEngine.popen_uci(binary)
    engine.configure({'Threads': 1, 'Hash': hash_mb})
    found = {}
    try:
        for case in cases:
            if case['kind'] not in kinds:
                continue
            for mode in MODES:
                _, last, best, settled = run(engine, case, mode, None, 0, nodes)
                found[f"{case['id']}/{mode}"] = [settled, last, best]
    finally:
        engine.quit()
    return found


def cached(cache, key, compute):
    """`compute()`, kept under `cache/key.json` when a cache and a key are given."""
    if cache and key:
        path = os.path.join(cache, key + '.json')
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)
    value = compute()
    if cache and key:
        os.makedirs(cache, exist_ok=True)
        with open(os.path.join(cache, key + '.json'), 'w') as f:
            json.dump(value, f)
    return value


def behaviour(binary):
    """The seed behaviour cases at 1 s a move: the ids that fail."""
    with open(SEED_BEHAVIOUR) as f:
        cases = [json.loads(line) for line in f if line.strip()]
    engine = chess.engine.SimpleEngine.popen_uci(binary)
    failed = []
    try:
        for case in cases:
            board = chess.Board(case['fen'])
            for m in case.get('moves', []):
                board.push_uci(m)
            result = engine.play(board, chess.engine.Limit(time=1.0), game=object(),
                                 info=chess.engine.INFO_SCORE)
            best = result.move.uci() if result.move else None
            expect = case.get('expect', {})
            ok = (not expect.get('best_in') or best in expect['best_in']) and \
                best not in expect.get('best_not_in', [])
            if case.get('draw_score'):
                score = result.info.get('score')
                cp = None if score is None else score.pov(board.turn).score(mate_score=100000)
                ok &= cp is not None and abs(cp) <= 15
            if not ok:
                failed.append(case['id'])
    finally:
        engine.quit()
    return failed


def geometric_mean(values):
    return math.exp(statistics.mean(math.log(max(v, 1)) for v in values)) if values else 1.0


def ratios_to_stockfish(tf, sf, keys):
    """Threefold's nodes to 0.00 over Stockfish's, case by case (never proven: infinity)."""
    ratios = []
    for k in keys:
        t, s = tf[k][0], sf[k][0]
        if t is None:
            ratios.append(math.inf)
        elif s is None:
            ratios.append(0.0)
        else:
            ratios.append(t / max(s, 1))
    return ratios


def median_ratio(tf, sf, keys):
    """The median of Threefold's nodes to 0.00 over Stockfish's (never proven: infinity)."""
    ratios = ratios_to_stockfish(tf, sf, keys)
    return statistics.median(ratios) if ratios else 0.0


def within_half(tf, sf, keys):
    """How many cases Threefold settles in at most half of Stockfish's nodes: the median is at
    most 0.5 once more than half of the cases are."""
    return sum(r <= 0.5 for r in ratios_to_stockfish(tf, sf, keys))


def gate(args, cases):
    budget = args.nodes or 1_500_000
    perpetual_ids = [c['id'] for c in cases if c['kind'] == 'perpetual']
    keys = [f'{i}/{m}' for i in perpetual_ids for m in MODES]
    # Cached runs are keyed by main's binary, the budget and the cases.
    cases_key = hashlib.sha256(json.dumps(cases, sort_keys=True).encode()).hexdigest()[:8]
    base_key = f'{signature(args.base)}-{cases_key}'
    failures = []

    print(f'gate: budget {budget} nodes; main {args.base} ({base_key}); candidate {args.engine}; '
          f'{len(cases)} cases')
    kinds = {'perpetual', 'false', 'escapable'}
    base = cached(args.cache, f'full-{base_key}-{budget}',
                  lambda: measure(args.base, cases, budget, 64, kinds))
    # Main's runs at the other hash sizes, at the whole budget too (the Hash 64 run is `base`).
    core_runs = [base] + [cached(args.cache, f'corefull-{base_key}-{budget}-h{h}',
                                 lambda h=h: measure(args.base, cases, budget, h, {'perpetual'}))
                          for h in HASHES_FOR_CORE if h != 64]

    def proven_early(run, key):
        return run[key][0] is not None and run[key][0] <= budget // 10

    core = [i for i in perpetual_ids
            if all(proven_early(r, f'{i}/{m}') for r in core_runs for m in MODES)]
    tail = [i for i in perpetual_ids if i not in core]
    print(f'core: {len(core)} of {len(perpetual_ids)} perpetual cases (main proves them within '
          f'{budget // 10} nodes at Hash {", ".join(map(str, HASHES_FOR_CORE))}); tail: {len(tail)}')
    cand = measure(args.engine, cases, budget, 64, kinds)

    def describe(i, m):
        b, c = base[f'{i}/{m}'], cand[f'{i}/{m}']
        return (f'{i} {m}: main {b[0]} nodes, candidate {c[0]} nodes '
                f'(its last score {c[1]}, move {c[2]})')

    lost_core = [(i, m) for i in core for m in MODES if cand[f'{i}/{m}'][0] is None]
    for i, m in lost_core:
        print('  core lost: ' + describe(i, m))
    if lost_core:
        failures.append(f'{len(lost_core)} core case(s) lost')
    print(f'core: {len(core) * 2 - len(lost_core)}/{len(core) * 2} proven (both modes)')

    by_id = {c['id']: c for c in cases}
    case_of = {k: by_id[k.split('/')[0]] for k in cand}
    falses = [k for k in cand if case_of[k]['kind'] == 'false']
    escapes = [k for k in cand if case_of[k]['kind'] == 'escapable']
    shown = [k for k in falses if cand[k][1] == 0]
    let_go = [k for k in escapes if not holds(case_of[k], cand[k][1], cand[k][2])]
    print(f'false perpetuals shown as 0.00: {len(shown)}/{len(falses)}'
          + (f" ({', '.join(shown)})" if shown else ''))
    print(f'escapable cases held: {len(escapes) - len(let_go)}/{len(escapes)}'
          + (f" (not: {', '.join(let_go)})" if let_go else ''))
    if shown:
        failures.append('false perpetuals shown as 0.00')
    if let_go:
        failures.append('escapable cases not held')

    failed_behaviour = behaviour(args.engine)
    print(f'seed behaviour cases failed: {len(failed_behaviour)}'
          + (f" ({', '.join(failed_behaviour)})" if failed_behaviour else ''))
    if failed_behaviour:
        failures.append('seed behaviour cases')

    # The tail: cases unproven at 1x searched again at 4x.
    def costs(binary, results, cache_key):
        missing = [c for c in cases if c['id'] in tail
                   and any(results[f"{c['id']}/{m}"][0] is None for m in MODES)]
        # Keyed by the cases searched again too: the tail follows the core's rule.
        missing_key = hashlib.sha256(' '.join(c['id'] for c in missing).encode()).hexdigest()[:8]
        again = cached(args.cache, cache_key and f'{cache_key}-{missing_key}',
                       lambda: measure(binary, missing, 4 * budget, 64, {'perpetual'}))
        out = {}
        for i in tail:
            for m in MODES:
                k = f'{i}/{m}'
                if results[k][0] is not None:
                    out[k] = (results[k][0], '1x')
                elif k in again and again[k][0] is not None:
                    out[k] = (again[k][0], '4x')
                else:
                    out[k] = (8 * budget, 'never')
        return out

    base_costs = costs(args.base, base, f'tail4x-{base_key}-{budget}')
    cand_costs = costs(args.engine, cand, None)
    lost_tail = [k for k in base_costs if base_costs[k][1] == '1x' and cand_costs[k][1] == 'never']
    slower = [k for k in base_costs if base_costs[k][1] == '1x' and cand_costs[k][1] == '4x']
    for k in slower:
        print('  tail proven only at 4x: ' + describe(*k.split('/')) + f' (4x: {cand_costs[k][0]})')
    for k in lost_tail:
        print('  tail lost at 4x: ' + describe(*k.split('/')))
    base_mean = geometric_mean([v[0] for v in base_costs.values()])
    cand_mean = geometric_mean([v[0] for v in cand_costs.values()])
    print(f'tail: geometric mean cost main {base_mean:.0f}, candidate {cand_mean:.0f} nodes '
          f'(ratio {cand_mean / base_mean:.2f}, at most {TOLERANCE:.2f}); proven at 1x: main '
          f"{sum(v[1] == '1x' for v in base_costs.values())}, candidate "
          f"{sum(v[1] == '1x' for v in cand_costs.values())} of {len(base_costs)}")
    if lost_tail:
        failures.append(f'{len(lost_tail)} tail case(s) not proven even at 4x')
    if cand_mean > TOLERANCE * base_mean:
        failures.append('the tail grew')

    sf = {}
    if not args.no_stockfish:
        sf = cached(args.cache, f'stockfish-{cases_key}-{budget}',
                    lambda: measure(args.stockfish, cases, budget, 64, {'perpetual'}))
        for m in MODES:
            mode_keys = [k for k in keys if k.endswith('/' + m)]
            b, c = median_ratio(base, sf, mode_keys), median_ratio(cand, sf, mode_keys)
            print(f'{m}: median nodes to 0.00 over Stockfish\'s: main {b:.2f}, candidate {c:.2f}')
            print(f'{m}: cases in at most half of Stockfish\'s nodes: main '
                  f'{within_half(base, sf, mode_keys)}, candidate {within_half(cand, sf, mode_keys)}'
                  f' of {len(mode_keys)} (a median of 0.5 needs {len(mode_keys) // 2 + 1})')
            if c > TOLERANCE * b:
                failures.append(f'the ratio to Stockfish grew ({m})')

    if args.json:
        rows = [{'case': k, 'main': base.get(k), 'candidate': cand.get(k), 'stockfish': sf.get(k)}
                for k in cand]
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=1)
    print('gate: ' + ('PASS' if not failures else 'FAIL: ' + '; '.join(failures)))
    return 0 if not failures else 1


if __name__ == '__main__':
    sys.exit('run it as: proof_suite.py --gate --base MAIN --engine CANDIDATE')
