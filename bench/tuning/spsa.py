#!/usr/bin/env python3
"""Tune the search's numbers by SPSA on one machine, with fastchess: resumable, one state file.

  python3 bench/tuning/spsa.py --engine TUNING_BUILD --state FILE [--params a,b,...]
                               [--iterations 3000] [--pairs 2] [--tc 2+0.02 | --nodes N]
                               [--r-end R] [--hash 16]
                               [--seed 1] [--concurrency 2] [--minutes M] [--fastchess PATH]
  python3 bench/tuning/spsa.py --state FILE --report [--write-back src/search/params.rs]

The engine must be a tuning build (`cargo build --release --features tune`): its tunable numbers
are UCI options, and `threefold spsa` lists them as OpenBench's SPSA input (name, int, value,
min, max, c_end, r_end), which is where this script takes them from when it starts a tune.
--params picks some of them (default: all).

Each iteration k perturbs every parameter by ±c_k at random (one sign a parameter), plays
--pairs opening pairs between the two sides (`plus` with value + c_k·sign, `minus` with
value − c_k·sign, each opening with both colours) and moves every value by
a_k / c_k · (plus's wins − plus's losses) · sign. The schedule is OpenBench's: with N
iterations, c_k = c_end · (N / k)^0.101 and a_k = r_end · c_end² · ((A + N) / (A + k))^0.602,
A = N / 10, so c_k shrinks to c_end and a_k to r_end · c_end² at the last iteration. Values stay
in their ranges; the engine is given them rounded.

--nodes N plays every game at N nodes a move and no clock (`go nodes N`): the games do not
depend on how loaded the machine is, so a tune may share its cores. --r-end R sets every
parameter's r_end (the engine's own is 0.002): a_k / c_k · (w − l) is how far one iteration
moves a value, so over N iterations of P pairs a parameter whose slope is worth nothing still
drifts by noise alone some r_end · c_end · sqrt(2 · P · N · (1 − draw rate)) of its units (more,
since a_k starts about four times larger); a tune must run long enough, with r_end large
enough, that a real slope moves a value several c_end while that drift stays near one.

The state file (JSON) is rewritten after every iteration, so a stopped tune (Ctrl-C, --minutes,
a lost machine) resumes where it was by running the same command again. The state holds what
defines the tune (parameters, schedule, time control, pairs, seed), and on resuming those options
of the command line are ignored; it names no file of the machine, so a tune may go on elsewhere
with --engine, --book, --concurrency and --fastchess of that machine (the engine's parameters
must match the state's: same names and ranges). --report prints each parameter's default, its
current value and the move in units of c_end; --write-back writes the rounded values into the
`tunables!` rows of params.rs (then build, bench, and match the result against the untuned
build). One progress line an iteration; failures (illegal moves, crashes, time losses) are
counted in the state and stop the tune.

Needs fastchess (bench/lib/fastchess.py says how to build it), `pip install chess` (for the PGN
reading of measure/pgn_report.py) and the openings of bench/lib/paths.py.
"""
import argparse, json, os, random, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'measure'))
import fastchess
from paths import BOOK, OUT
from pgn_report import match_summary

ALPHA = 0.602
GAMMA = 0.101


def engine_params(engine):
    """The engine's tunable numbers, from `ENGINE spsa` (OpenBench's SPSA input)."""
    proc = subprocess.run([engine, 'spsa'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f'{engine} spsa failed (a tuning build is needed): {proc.stderr.strip()}')
    params = []
    for line in proc.stdout.splitlines():
        fields = [f.strip() for f in line.split(',')]
        if len(fields) != 7 or fields[1] != 'int':
            sys.exit(f'{engine} spsa printed a line that is no SPSA input: {line!r}')
        name, _, value, low, high, c_end, r_end = fields
        params.append({'name': name, 'default': int(value), 'min': int(low), 'max': int(high),
                       'c_end': float(c_end), 'r_end': float(r_end), 'value': float(value)})
    return params


def new_state(a, params):
    if a.params:
        wanted = a.params.split(',')
        known = {p['name'] for p in params}
        unknown = [w for w in wanted if w not in known]
        if unknown:
            sys.exit(f'unknown parameters: {", ".join(unknown)}; the engine has: {", ".join(sorted(known))}')
        params = [p for p in params if p['name'] in wanted]
    if a.r_end is not None:
        params = [dict(p, r_end=a.r_end) for p in params]
    return {'tc': None if a.nodes else a.tc, 'nodes': a.nodes, 'hash': a.hash, 'pairs': a.pairs,
            'iterations': a.iterations,
            'seed': a.seed, 'done': 0, 'wins': 0, 'draws': 0, 'losses': 0,
            'failures': {}, 'params': params, 'log': []}


def check_engine(state, params):
    """Exits unless the engine has every parameter of the state, with the same range."""
    ranges = {p['name']: (p['min'], p['max']) for p in params}
    for p in state['params']:
        if ranges.get(p['name']) != (p['min'], p['max']):
            sys.exit(f'the engine\'s {p["name"]} is {ranges.get(p["name"], "missing")}, the tune\'s '
                     f'{(p["min"], p["max"])}: not the build this tune was started with')


def dumps(state):
    """The state as JSON with one line a field, a parameter or an iteration (small diffs when
    the file is kept in git)."""
    fields = []
    for key, value in state.items():
        if isinstance(value, list) and value:
            rows = ',\n'.join(f'  {json.dumps(v)}' for v in value)
            fields.append(f' {json.dumps(key)}: [\n{rows}\n ]')
        else:
            fields.append(f' {json.dumps(key)}: {json.dumps(value)}')
    return '{\n' + ',\n'.join(fields) + '\n}\n'


def save(state, path):
    """Writes the state atomically: a crash mid-write leaves the previous state whole."""
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile('w', dir=folder, delete=False, suffix='.tmp') as f:
        f.write(dumps(state))
    os.replace(f.name, path)


def schedule(state, param, k):
    """(c_k, a_k) of `param` at iteration k (1-based)."""
    n = state['iterations']
    big_a = n / 10
    c_k = param['c_end'] * (n / k) ** GAMMA
    a_k = param['r_end'] * param['c_end'] ** 2 * ((big_a + n) / (big_a + k)) ** ALPHA
    return c_k, a_k


def clamp(param, x):
    return min(max(x, param['min']), param['max'])


def iterate(state, a, runner, work):
    """Plays iteration done + 1 and moves the values; returns plus's (wins, draws, losses)."""
    k = state['done'] + 1
    rng = random.Random(f'{state["seed"]}:{k}')
    signs = [rng.choice((-1, 1)) for _ in state['params']]
    plus, minus = [], []
    for param, sign in zip(state['params'], signs):
        c_k, _ = schedule(state, param, k)
        plus.append(f'{param["name"]}={round(clamp(param, param["value"] + c_k * sign))}')
        minus.append(f'{param["name"]}={round(clamp(param, param["value"] - c_k * sign))}')
    common = [f'Hash={state["hash"]}', 'Threads=1']
    pgn = os.path.join(work, 'iteration.pgn')
    engine = os.path.abspath(a.engine)
    finished = fastchess.play(runner, fastchess.Player('plus', engine, common + plus),
                              fastchess.Player('minus', engine, common + minus),
                              games=2 * state['pairs'], tc=state['tc'], book=a.book,
                              nodes=state.get('nodes'),
                              concurrency=a.concurrency, seed=state['seed'] * 1_000_003 + k,
                              pgn_path=pgn, log_path=os.path.join(work, 'iteration.log'))
    if not finished:
        sys.exit(f'iteration {k}: fastchess failed; see {os.path.join(work, "iteration.log")} '
                 '(the state is as before the iteration; run the command again to retry)')
    w, d, l, failed = match_summary(pgn, 'plus')
    if w + d + l != 2 * state['pairs']:
        sys.exit(f'iteration {k}: {w + d + l} games of {2 * state["pairs"]} finished; see {pgn}')
    for param, sign in zip(state['params'], signs):
        c_k, a_k = schedule(state, param, k)
        param['value'] = clamp(param, param['value'] + a_k / c_k * (w - l) * sign)
    state['done'] = k
    state['wins'] += w
    state['draws'] += d
    state['losses'] += l
    for failure, games in failed.items():
        if games:
            state['failures'][failure] = state['failures'].get(failure, 0) + games
    state['log'].append([k, w, d, l])
    return w, d, l


def moves(state):
    """The parameters sorted by how far they moved, in units of c_end."""
    return sorted(state['params'], key=lambda p: -abs(p['value'] - p['default']) / p['c_end'])


def progress(state, w, d, l, started, done_before):
    k = state['done']
    rate = (k - done_before) / max(time.time() - started, 1e-9) * 3600
    leaders = ', '.join(f'{p["name"]} {p["default"]}->{p["value"]:.1f}' for p in moves(state)[:3])
    print(f'iteration {k}/{state["iterations"]}  plus +{w} ={d} -{l}  games {2 * state["pairs"] * k}  '
          f'{rate:.0f} iterations/h  moved most: {leaders}', flush=True)


def report(state):
    games = state['wins'] + state['draws'] + state['losses']
    limit = f'{state["nodes"]} nodes a move' if state.get('nodes') else state['tc']
    print(f'{state["done"]} of {state["iterations"]} iterations, {games} games at {limit} '
          f'({state["pairs"]} pairs an iteration); failures: {state["failures"] or "none"}')
    print(f'{"parameter":32} {"default":>8} {"now":>9} {"moved (c_end)":>14}')
    for p in moves(state):
        print(f'{p["name"]:32} {p["default"]:>8} {p["value"]:>9.2f} '
              f'{(p["value"] - p["default"]) / p["c_end"]:>+14.2f}')


def write_back(state, path):
    """Writes each parameter's rounded value into its `name = value, min..=max, step s;` row."""
    with open(path) as f:
        text = f.read()
    for p in state['params']:
        row = re.compile(rf'^(\s*{re.escape(p["name"])} = )(-?[\d_]+)(, )', re.MULTILINE)
        text, found = row.subn(lambda m: f'{m.group(1)}{round(p["value"])}{m.group(3)}', text)
        if found != 1:
            sys.exit(f'{path}: {found} rows for {p["name"]}, expected one; nothing written')
    with open(path, 'w') as f:
        f.write(text)
    print(f'wrote {len(state["params"])} values into {path}')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--state', required=True, help='the tune\'s state (JSON); created if absent, resumed if not')
    ap.add_argument('--engine', help='a tuning build (needed but for --report)')
    ap.add_argument('--params', help='comma-separated names (default: every tunable number)')
    ap.add_argument('--iterations', type=int, default=3000, help='the schedule\'s length N')
    ap.add_argument('--pairs', type=int, default=2, help='opening pairs an iteration (2 games each)')
    ap.add_argument('--tc', default='2+0.02')
    ap.add_argument('--nodes', type=int, help='nodes a move, no clock (in place of --tc)')
    ap.add_argument('--r-end', type=float, help='every parameter\'s r_end (default: the engine\'s)')
    ap.add_argument('--hash', type=int, default=16)
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--seed', type=int, default=1, help='draws the signs and the openings')
    ap.add_argument('--book', default=BOOK)
    ap.add_argument('--minutes', type=float, help='stop after the iteration that passes this long')
    ap.add_argument('--fastchess', help='the fastchess binary (default: $FASTCHESS, else fastchess on PATH)')
    ap.add_argument('--report', action='store_true', help='print the state and stop')
    ap.add_argument('--write-back', metavar='PARAMS_RS', help='with --report: write the values into params.rs')
    a = ap.parse_args()
    if a.write_back and not a.report:
        ap.error('--write-back goes with --report')
    if a.report:
        if not os.path.exists(a.state):
            sys.exit(f'no state at {a.state}')
        with open(a.state) as f:
            state = json.load(f)
        report(state)
        if a.write_back:
            write_back(state, a.write_back)
        return
    if not a.engine:
        ap.error('a tune needs --engine (a tuning build)')
    params = engine_params(a.engine)
    if os.path.exists(a.state):
        with open(a.state) as f:
            state = json.load(f)
        check_engine(state, params)
        print(f'resuming {a.state} after iteration {state["done"]} of {state["iterations"]}', flush=True)
    else:
        if a.iterations < 1 or a.pairs < 1:
            ap.error('--iterations and --pairs must be at least 1')
        if a.nodes is not None and a.nodes < 1:
            ap.error('--nodes must be at least 1')
        if a.r_end is not None and not a.r_end > 0:
            ap.error('--r-end must be above 0')
        state = new_state(a, params)
        save(state, a.state)
        print(f'new tune of {len(state["params"])} parameters in {a.state}', flush=True)
    runner = fastchess.find(a.fastchess)
    # The last iteration's PGN and fastchess log, one folder a tune.
    work = os.path.join(OUT, 'spsa', os.path.splitext(os.path.basename(a.state))[0])
    os.makedirs(work, exist_ok=True)
    started, done_before = time.time(), state['done']
    while state['done'] < state['iterations']:
        w, d, l = iterate(state, a, runner, work)
        save(state, a.state)
        progress(state, w, d, l, started, done_before)
        if state['failures']:
            sys.exit(f'stopped: games lost by failing: {state["failures"]} (see {work})')
        if a.minutes is not None and time.time() - started >= a.minutes * 60:
            print(f'stopped after {a.minutes:g} minutes; the same command resumes', flush=True)
            break
    report(state)


if __name__ == '__main__':
    main()
