#!/usr/bin/env python3
"""The perpetual-proof suite: how fast Threefold and Stockfish see a forced repetition as 0.00.

    python3 bench/measure/proof_suite.py [--suite bench/data/perpetuals.jsonl] [--movetime 1000] \
        [--engine target/release/threefold] [--stockfish /usr/games/stockfish] \
        [--modes bare,history,contempt] [--only ID,ID] [--no-stockfish] [--json out.json] \
        [--nodes N] [--prover [--prover-nodes N]]
    python3 bench/measure/proof_suite.py --gate --base MAIN_BINARY --engine CANDIDATE [--nodes N]

`--gate` applies the proof-suite gate (`proof_gate.py`, docs/strength.md) instead of printing
the table.

For each case of the suite (made by `bench/suites/harvest_perpetuals.py`) both engines search
`--movetime` ms with one thread and 64 MiB of hash, from the bare FEN (`bare`) and from the game's
start position with its moves (`history`); Threefold also with `Contempt` +50 and -50 (`contempt`,
bare FEN, played as a game move: in analysis mode contempt is off).

- A *perpetual* is proven at the first report (`info ... score`, the best line) from which every
  later report scores 0.00 up to the end of the search; its time is the engine's own `time`
  field. With contempt C the draw is worth -C to the engine, so the score to reach is -C.
- A *false perpetual* passes when the last report does not score 0.00 (-C with contempt).
- An *escapable* case looked like a perpetual (Stockfish 0.00, every other move -2.00 or worse)
  but the side drawn against has a move off the repetition that Stockfish scores within 0.50 of
  the draw (`bench/suites/harvest_perpetuals.py --verify`): the 0.00 is then an evaluation, not a
  proof, and the engine passes when it plays a drawing move and its last score is above -1.00
  (with contempt too: every other move still loses).
- With contempt, a perpetual passes when the engine's last score is -C (it took the draw though
  a draw costs it C), a false perpetual when it is not.

With `--nodes N` every search (both engines, every mode) is limited to N nodes instead of the
time: the result no longer depends on the machine or its load, so two builds can be compared on a
busy machine, and the slowest perpetuals are listed by the nodes they took (the suite's slow tail,
which moves with every change to the search or the network).

With `--prover` each case is also put to `threefold perpetual` (bare FEN, the attacker the side
whose drawing move gives check, else the other; `--prover-nodes` positions, 200,000 by default):
its answer (proven, refuted, unknown), positions and milliseconds go beside the searches' times
to 0.00, and the summary counts the answers by kind with the proven perpetuals' median and
slowest time.

Prints a row per case, then the summary: perpetuals proven within the time, the median time to
0.00 of each engine (a case never proven counts as slower than any proven one) and their ratio,
and the false perpetuals shown as draws. Exit status 1 when Threefold misses a perpetual or
shows a false perpetual as a draw. Needs `pip install chess`.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys

import chess
import chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE, PERPETUALS
CONTEMPT = 50
# An escapable case holds when the engine's last score is above this (it does not think the
# drawing move loses).
NOT_LOST = -100


def limit(movetime_ms, nodes):
    """The search limit: `nodes` when given, else the move time."""
    if nodes:
        return chess.engine.Limit(nodes=nodes)
    return chess.engine.Limit(time=movetime_ms / 1000)


def prover(engine, case, nodes):
    """`threefold perpetual` on the case's bare FEN: (answer, positions, ms)."""
    board = chess.Board(case['fen'])
    drawing = (case['drawing_moves'] or [case['sf_best']])[0]
    gives = board.gives_check(chess.Move.from_uci(drawing))
    attacker = board.turn if gives else not board.turn
    out = subprocess.run([engine, 'perpetual', '--fen', case['fen'], '--attacker',
                          'white' if attacker else 'black', '--nodes', str(nodes), '--json'],
                         capture_output=True, text=True)
    cert = json.loads(out.stdout)
    return cert['result'], cert['nodes'], cert['ms']


def run(engine, case, mode, movetime_ms, draw, nodes=None):
    """Searches one case; returns (settle time in ms or None, last score, best move, nodes at
    the settle time or None)."""
    if mode == 'history':
        board = chess.Board(case['start_fen'])
        for m in case['moves']:
            board.push_uci(m)
    else:
        board = chess.Board(case['fen'])
    settled = None
    settled_nodes = None
    last = None
    best = None
    # A new game object makes python-chess send `ucinewgame`: every case starts afresh.
    with engine.analysis(board, limit(movetime_ms, nodes), game=object()) as analysis:
        for info in analysis:
            if 'score' not in info or info.get('multipv', 1) != 1:
                continue
            # A bound after a failed aspiration window is no score of the position: it is shown
            # only after some seconds, so counting it would make the result depend on the load.
            if info.get('lowerbound') or info.get('upperbound'):
                continue
            score = info['score'].pov(board.turn)
            cp = None if score.is_mate() else score.score()
            if 'pv' in info and info['pv']:
                best = info['pv'][0].uci()
            ms = int(round(info.get('time', 0) * 1000))
            if cp == draw:
                if settled is None:
                    settled = ms
                    settled_nodes = info.get('nodes')
            else:
                settled = None
                settled_nodes = None
            last = cp
        if analysis.info.get('pv'):
            best = analysis.info['pv'][0].uci()
    return settled, last, best, settled_nodes


def play(engine, case, movetime_ms, nodes=None):
    """Plays one move from the bare FEN as in a game (python-chess's `analysis` would switch
    `UCI_AnalyseMode` on, and with it contempt off); returns (last score, best move)."""
    board = chess.Board(case['fen'])
    result = engine.play(board, limit(movetime_ms, nodes), game=object(),
                         info=chess.engine.INFO_SCORE)
    score = result.info.get('score')
    cp = None if score is None or score.is_mate() else score.pov(board.turn).score()
    return cp, result.move.uci() if result.move else None


def fmt(ms):
    return 'never' if ms is None else f'{ms}'


def fmt_cp(cp):
    return 'mate' if cp is None else f'{cp:+d}'


def holds(case, last, best):
    """An escapable case: a drawing move played, and a score that is not lost."""
    return best in case['drawing_moves'] and last is not None and last > NOT_LOST


def unproven_last(value):
    """A time or node count for sorting: a case never proven (None) after every proven one."""
    return math.inf if value is None else value


def median_proven(values):
    """The median time or node count, a case never proven counting as slower than every proven
    one; None when that median is itself an unproven case."""
    if not values:
        return None
    value = statistics.median([unproven_last(v) for v in values])
    return None if value == math.inf else value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--suite', default=PERPETUALS)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--stockfish', default='/usr/games/stockfish')
    ap.add_argument('--no-stockfish', action='store_true')
    ap.add_argument('--movetime', type=int, default=1000)
    ap.add_argument('--nodes', type=int, help='a node limit for every search instead of --movetime')
    ap.add_argument('--modes', default='bare,history,contempt')
    ap.add_argument('--only', default='')
    ap.add_argument('--option', action='append', default=[], help='Name=Value for Threefold')
    ap.add_argument('--json')
    ap.add_argument('--prover', action='store_true',
                    help='also put each case to `threefold perpetual` (the prover)')
    ap.add_argument('--prover-nodes', type=int, default=200_000)
    ap.add_argument('--gate', action='store_true',
                    help='the proof-suite gate of --engine against --base (proof_gate.py)')
    ap.add_argument('--base', help='--gate: main\'s binary')
    ap.add_argument('--cache', help='--gate: a folder that keeps main\'s runs between gates')
    args = ap.parse_args()
    modes = [m for m in args.modes.split(',') if m]
    only = {i for i in args.only.split(',') if i}
    with open(args.suite) as f:
        cases = [json.loads(line) for line in f if line.strip()]
    cases = [c for c in cases if not only or c['id'] in only]
    if args.gate:
        if not args.base:
            ap.error('--gate needs --base (main\'s binary)')
        from proof_gate import gate
        sys.exit(gate(args, cases))

    tf = chess.engine.SimpleEngine.popen_uci(args.engine)
    options = {'Threads': 1, 'Hash': 64}
    for opt in args.option:
        name, _, value = opt.partition('=')
        options[name] = value
    tf.configure(options)
    sf = None
    if not args.no_stockfish:
        sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        sf.configure({'Threads': 1, 'Hash': 64})

    rows = []
    header = f"{'case':15} {'kind':9}"
    for mode in ('bare', 'history'):
        if mode in modes:
            header += f" {'TF ' + mode:>11} {'SF ' + mode:>11} {'ratio':>6}"
    if 'contempt' in modes:
        header += f" {'C+50':>5} {'C-50':>5}"
    if args.prover:
        header += f" {'prover':>24}"
    print(header)
    for case in cases:
        perpetual = case['kind'] == 'perpetual'
        row = {'id': case['id'], 'kind': case['kind']}
        line = f"{case['id']:15} {case['kind']:9}"
        for mode in ('bare', 'history'):
            if mode not in modes:
                continue
            t_ms, t_last, t_best, t_nodes = run(tf, case, mode, args.movetime, 0, args.nodes)
            s_ms, s_last, s_best = (None, None, None)
            if sf:
                s_ms, s_last, s_best, _ = run(sf, case, mode, args.movetime, 0, args.nodes)
            row[mode] = {'tf_ms': t_ms, 'tf_last': t_last, 'tf_nodes': t_nodes,
                         'sf_ms': s_ms, 'sf_last': s_last}
            if perpetual:
                ratio = '' if t_ms is None or not s_ms else f'{t_ms / max(s_ms, 1):.2f}'
                sf_shown = fmt(s_ms) if sf else '-'
                line += f' {fmt(t_ms):>11} {sf_shown:>11} {ratio:>6}'
            elif case['kind'] == 'escapable':
                row[mode]['tf_holds'] = holds(case, t_last, t_best)
                shown = f"{'ok' if row[mode]['tf_holds'] else 'LOST'} {fmt_cp(t_last)}"
                sf_shown = '-'
                if sf:
                    sf_shown = f"{'ok' if holds(case, s_last, s_best) else 'LOST'} {fmt_cp(s_last)}"
                line += f' {shown:>11} {sf_shown:>11} {"":>6}'
            else:
                sf_shown = ('ok' if s_last != 0 else 'DRAW') if sf else '-'
                line += f" {'ok' if t_last != 0 else 'DRAW':>11} {sf_shown:>11} {'':>6}"
        if 'contempt' in modes:
            for c in (CONTEMPT, -CONTEMPT):
                tf.configure({'Contempt': c})
                t_last, best = play(tf, case, args.movetime, args.nodes)
                if case['kind'] == 'escapable':
                    ok = best in case['drawing_moves']
                else:
                    ok = (t_last == -c) if perpetual else (t_last != -c)
                row[f'contempt{c:+d}'] = {'tf_last': t_last, 'best': best, 'ok': ok}
                line += f" {'ok' if ok else 'FAIL':>5}"
            tf.configure({'Contempt': 0})
        if args.prover:
            answer, positions, ms = prover(args.engine, case, args.prover_nodes)
            row['prover'] = {'answer': answer, 'positions': positions, 'ms': ms}
            line += f" {answer + ' ' + str(positions) + ' / ' + str(ms) + ' ms':>24}"
        print(line, flush=True)
        rows.append(row)
    tf.quit()
    if sf:
        sf.quit()

    failed = False
    print()
    perpetuals = [r for r in rows if r['kind'] == 'perpetual']
    falses = [r for r in rows if r['kind'] == 'false']
    for mode in ('bare', 'history'):
        if mode not in modes or not perpetuals:
            continue
        tf_times = [r[mode]['tf_ms'] for r in perpetuals]
        sf_times = [r[mode]['sf_ms'] for r in perpetuals]
        tf_med = median_proven(tf_times)
        tf_nodes = median_proven([r[mode]['tf_nodes'] for r in perpetuals])
        proven = sum(t is not None for t in tf_times)
        failed |= proven < len(perpetuals)
        budget = f'{args.nodes} nodes' if args.nodes else f'{args.movetime} ms'
        summary = (f'{mode}: perpetuals proven within {budget}: Threefold '
                   f'{proven}/{len(perpetuals)}')
        if sf:
            sf_med = median_proven(sf_times)
            sf_proven = sum(t is not None for t in sf_times)
            ratio = (f'{tf_med / max(sf_med, 1):.2f}' if tf_med is not None and sf_med is not None
                     else 'n/a')
            summary += (f', Stockfish {sf_proven}/{len(perpetuals)}; median time to 0.00: '
                        f'Threefold {fmt(tf_med)} ms, Stockfish {fmt(sf_med)} ms, ratio {ratio}')
        else:
            summary += f'; median time to 0.00: Threefold {fmt(tf_med)} ms'
        summary += f', Threefold median nodes to 0.00: {fmt(tf_nodes)}'
        print(summary)
        slowest = sorted(perpetuals, key=lambda r: unproven_last(r[mode]['tf_nodes']),
                         reverse=True)[:5]
        print(f'{mode}: slowest for Threefold (nodes to 0.00): '
              + ', '.join(f"{r['id']} {fmt(r[mode]['tf_nodes'])}" for r in slowest))
        shown = sum(r[mode]['tf_last'] == 0 for r in falses)
        failed |= shown > 0
        line = f'{mode}: false perpetuals shown as 0.00: Threefold {shown}/{len(falses)}'
        if sf:
            line += f", Stockfish {sum(r[mode]['sf_last'] == 0 for r in falses)}/{len(falses)}"
        print(line)
    if args.prover:
        for kind in ('perpetual', 'false', 'escapable'):
            answers = [r['prover'] for r in rows if r['kind'] == kind]
            if not answers:
                continue
            counts = ', '.join(f"{sum(a['answer'] == v for a in answers)} {v}"
                               for v in ('proven', 'refuted', 'unknown'))
            line = f'prover on the {kind} cases ({args.prover_nodes} positions): {counts}'
            proven_ms = sorted(a['ms'] for a in answers if a['answer'] == 'proven')
            if proven_ms:
                line += (f'; proven in a median {statistics.median(proven_ms):.0f} ms, '
                         f'the slowest {proven_ms[-1]} ms')
            print(line)
    escapable = [r for r in rows if r['kind'] == 'escapable']
    for mode in ('bare', 'history'):
        if mode not in modes or not escapable:
            continue
        held = sum(r[mode]['tf_holds'] for r in escapable)
        failed |= held < len(escapable)
        print(f'{mode}: escapable cases held (a drawing move, score above {NOT_LOST / 100:.2f}): '
              f'Threefold {held}/{len(escapable)}')
    if 'contempt' in modes:
        for c in (CONTEMPT, -CONTEMPT):
            bad = [r['id'] for r in rows if not r[f'contempt{c:+d}']['ok']]
            failed |= bool(bad)
            print(f"Contempt {c:+d}: {len(rows) - len(bad)}/{len(rows)} as expected"
                  + (f" (not: {', '.join(bad)})" if bad else ''))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
