#!/usr/bin/env python3
"""Threefold under a real OpenBench server and client, on one machine, offline.

    python3 bench/openbench/run_local.py --workdir /tmp/threefold-openbench \
        --openbench https://github.com/AndyGrant/OpenBench --fastchess PATH --book FILE.epd \
        [--dev REF] [--base REF] [--threads 2]

Installs OpenBench's server and client at a pinned commit into WORKDIR (outside the
repository), the server's and client's Python packages from the package index into a virtual
environment there, starts the server on 127.0.0.1 with a sqlite database, and runs three
workloads to their end with one client:

1. an SPRT of two commits (DEV against BASE, default HEAD against HEAD~1) at 5+0.05, with
   bounds wide enough to end in a few dozen games;
2. a data-generation workload whose openings come from Threefold's `genfens`;
3. an SPSA workload over a few of the search's numbers, on a commit made for it in a scratch
   clone (DEV plus a `tune.mk`, so that OpenBench's plain `make` builds the tuning engine).

It reads the results back from the server's API, prints them, writes them to
WORKDIR/results.json, and stops every process it started, by process id. Exit status 0 when all
three workloads finished as they should (the SPRT decided, the games played without a crash or
time loss, the SPSA's values read back), 1 otherwise, 2 on bad arguments.

What OpenBench needs from the network at run time gets a local stand-in (docs/openbench.md):
GitHub's API (commit lookups when a workload is made) answers from the local clone; the
engine's source is a zip of each commit on a local HTTP server; the book and fastchess are
copied in; the client runs with `--no-client-downloads` and cargo with CARGO_NET_OFFLINE.
One patch is applied to the client: it kills processes by name (`pkill -f`), which would hit
any process on the machine whose command line holds the engine's name; the patch limits it to
the client's own descendants.
"""
import argparse
import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request

from commit_bench import bench_in_message

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
# The OpenBench commit this script was written and run against (2026).
OPENBENCH_COMMIT = '9906bad18e044c4b455539317b8cf037393a7218'
USER, PASSWORD = 'threefold', 'threefold-local'
ENGINE = 'Threefold'
# OpenBench insists on a GitHub URL for the repository; nothing fetches it (see LocalGitHub).
REPO_URL = 'https://github.com/local/Threefold'
SPSA_PARAMS = 'reverse_futility_margin,futility_margin,aspiration_window'

# The client's name-based kill, as OpenBench has it, and what the run puts in its place.
KILL_BY_NAME = """def kill_process_by_name(process_name):

    process_name = os.path.basename(process_name)

    if IS_LINUX:
        subprocess.run(['pkill', '-KILL', '-f', process_name])
"""
KILL_OWN_DESCENDANTS = """def kill_process_by_name(process_name):

    # Threefold's local run: kill only this client's own descendants whose command line holds
    # the name, not every process on the machine that matches (pkill -f).
    import psutil
    process_name = os.path.basename(process_name)

    if IS_LINUX:
        for child in psutil.Process().children(recursive=True):
            try:
                if process_name in ' '.join(child.cmdline()):
                    child.kill()
            except psutil.Error:
                pass
"""


class RunError(Exception):
    """A step of the run failed; the message says which and why."""


def log(message):
    print(message, flush=True)


def run(cmd, cwd=None, env=None, capture=False):
    """Runs a command to its end; raises RunError with its output when it fails."""
    done = subprocess.run(cmd, cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE if capture else None,
                          stderr=subprocess.PIPE if capture else None)
    if done.returncode != 0:
        detail = (done.stderr or '')[-2000:] if capture else ''
        raise RunError(f'{" ".join(map(str, cmd))} failed ({done.returncode}) {detail}')
    return done.stdout if capture else ''


def git(repo, *args):
    return run(['git', '-C', repo, *args], capture=True)


def text_sha256(path):
    """The book's checksum as OpenBench's client computes it: sha256 of the text read."""
    with open(path, encoding='utf-8') as f:
        return hashlib.sha256(f.read().encode('utf-8')).hexdigest()


class Processes:
    """The long-running processes this run started, each in its own session, stopped by id."""

    def __init__(self):
        self.started = []

    def start(self, name, cmd, cwd, logfile, env=None):
        out = open(logfile, 'w')
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        self.started.append((name, proc, out))
        log(f'started {name} (pid {proc.pid}), log {logfile}')
        return proc

    def stop_all(self):
        for name, proc, out in reversed(self.started):
            if proc.poll() is None:
                # The session (process group) of a process this run started holds only it and
                # its own children: the client's engines and fastchess, the server itself.
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                except ProcessLookupError:
                    pass
                log(f'stopped {name} (pid {proc.pid})')
            out.close()


def install_openbench(args, ob):
    """OpenBench at the pinned commit in WORKDIR/OpenBench, reset to a clean tree each run."""
    if not os.path.isdir(os.path.join(ob, '.git')):
        log(f'cloning OpenBench from {args.openbench}')
        run(['git', 'clone', '--quiet', args.openbench, ob])
    git(ob, 'checkout', '--quiet', '--force', args.openbench_commit)
    git(ob, 'clean', '-fdxq')  # the last run's database, Media/, client files


def install_packages(args, venv, ob):
    python = os.path.join(venv, 'bin', 'python')
    if not os.path.exists(python):
        run([sys.executable, '-m', 'venv', venv])
    stamp = os.path.join(venv, 'openbench-requirements')
    wanted = ''.join(open(os.path.join(ob, f)).read()
                     for f in ('requirements.txt', os.path.join('Client', 'requirements.txt')))
    if not os.path.exists(stamp) or open(stamp).read() != wanted:
        log('installing OpenBench\'s Python packages into the virtual environment')
        run([python, '-m', 'pip', 'install', '--quiet', '-r',
             os.path.join(ob, 'requirements.txt'), '-r',
             os.path.join(ob, 'Client', 'requirements.txt')])
        with open(stamp, 'w') as f:
            f.write(wanted)
    return python


def configure_openbench(args, ob, book_name, nps, zip_url_root):
    """Threefold and the book as the only engine and book, the client's local stand-ins."""
    config_path = os.path.join(ob, 'Config', 'config.json')
    config = json.load(open(config_path))
    config['engines'] = [ENGINE]
    config['books'] = [book_name]
    json.dump(config, open(config_path, 'w'), indent=4)

    engine = {
        'private': False,
        'nps': nps,
        'source': REPO_URL,
        'build': {'path': '', 'compilers': ['cargo>=1.70.0'], 'cpuflags': [],
                  'systems': ['Linux']},
    }
    json.dump(engine, open(os.path.join(ob, 'Engines', f'{ENGINE}.json'), 'w'), indent=4)

    # The book: its own checksum (the project's 2moves_v1.epd is not OpenBench's file of that
    # name), and the file put where the client looks before it would download it.
    book = {'sha': text_sha256(args.book), 'source': f'{zip_url_root}/books/{book_name}.zip'}
    json.dump(book, open(os.path.join(ob, 'Books', f'{book_name}.json'), 'w'), indent=4)
    os.makedirs(os.path.join(ob, 'Client', 'Books'), exist_ok=True)
    shutil.copyfile(args.book, os.path.join(ob, 'Client', 'Books', book_name))

    # fastchess: copied, not linked (the client changes its mode); a version at least the
    # configured minimum keeps the client from downloading its own.
    runner = os.path.join(ob, 'Client', 'fastchess-ob')
    shutil.copyfile(args.fastchess, runner)
    os.chmod(runner, 0o755)

    utils_path = os.path.join(ob, 'Client', 'utils.py')
    utils = open(utils_path).read()
    if KILL_BY_NAME not in utils:
        raise RunError('Client/utils.py has no kill_process_by_name as expected at '
                       f'{OPENBENCH_COMMIT[:7]}: check the patch against this OpenBench')
    open(utils_path, 'w').write(utils.replace(KILL_BY_NAME, KILL_OWN_DESCENDANTS))


def prepare_sources(args, clone, httpdir):
    """The commits' shas and benches, the tuning commit, the zips, and the tuning build's
    SPSA input lines and nps."""
    if not os.path.isdir(os.path.join(clone, '.git')):
        # --shared: the clone sees every object of the repository, branches or not.
        run(['git', 'clone', '--quiet', '--shared', '--no-checkout', args.repo, clone])
    shas = {}
    for role in ('dev', 'base'):
        ref = getattr(args, role)
        sha = git(args.repo, 'rev-parse', '--verify', ref + '^{commit}').strip()
        message = git(args.repo, 'log', '-1', '--format=%B', sha)
        if bench_in_message(message) is None:
            raise RunError(f'{role} {ref} ({sha[:8]}): its message names no bench, so '
                           'OpenBench would refuse it (docs/openbench.md)')
        shas[role] = sha

    # The tuning commit: DEV's tree plus tune.mk, with DEV's dates, so the same DEV gives the
    # same sha on every run (and the client's build of it is reused while WORKDIR lives).
    dev = shas['dev']
    date = git(clone, 'log', '-1', '--format=%cI', dev).strip()
    env = dict(os.environ, GIT_AUTHOR_NAME='Threefold local run', GIT_AUTHOR_EMAIL='local@localhost',
               GIT_COMMITTER_NAME='Threefold local run', GIT_COMMITTER_EMAIL='local@localhost',
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_INDEX_FILE=os.path.join(os.path.dirname(clone), 'tune.index'))
    proc = subprocess.run(['git', '-C', clone, 'hash-object', '-w', '--stdin'], env=env,
                          input='TUNE ?= 1\n', capture_output=True, text=True, check=True)
    blob = proc.stdout.strip()
    run(['git', '-C', clone, 'read-tree', dev], env=env)
    run(['git', '-C', clone, 'update-index', '--add', '--cacheinfo', f'100644,{blob},tune.mk'],
        env=env)
    tree = run(['git', '-C', clone, 'write-tree'], env=env, capture=True).strip()

    # Build it as OpenBench's client will (a plain `make`, which tune.mk turns into a tuning
    # build), here for its SPSA input lines and its bench.
    # The tree is unpacked over the last run's, whose target/ (cargo's build) is kept.
    worktree = os.path.join(os.path.dirname(clone), 'tune-src')
    os.makedirs(worktree, exist_ok=True)
    for entry in os.listdir(worktree):
        if entry != 'target':
            path = os.path.join(worktree, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    archive = subprocess.run(['git', '-C', clone, 'archive', '--format=tar', tree],
                             capture_output=True, check=True).stdout
    tarfile.open(fileobj=io.BytesIO(archive)).extractall(worktree)
    binary = os.path.join(os.path.dirname(clone), 'threefold-tune')
    log('building the tuning commit with a plain make, as the client will')
    run(['make', '-C', worktree, f'EXE={binary}'])
    wanted = args.spsa.split(',')
    lines = [line for line in run([binary, 'spsa'], capture=True).splitlines()
             if line.split(',')[0] in wanted]
    if len(lines) != len(wanted):
        raise RunError(f'the tuning build lacks some of {args.spsa}: it offers '
                       + run([binary, 'spsa'], capture=True))
    # The client benches in as many copies as it has threads: so does this, for the nps that
    # makes OpenBench's time scaling a factor of about one (the faster of two tries: the first
    # runs on a cold machine).
    nps = 0
    for _ in range(2):
        copies = [subprocess.Popen([binary, 'bench'], stdout=subprocess.PIPE, text=True)
                  for _ in range(args.threads)]
        results = [c.communicate()[0].strip().splitlines()[-1].split() for c in copies]
        bench = int(results[0][0])
        nps = max(nps, sum(int(r[2]) for r in results) // len(results))
    message = (f'Tuning build of {dev[:8]} for a local OpenBench run: tune.mk turns the '
               f'search\'s numbers into UCI options\n\nBench: {bench}\n')
    shas['tune'] = run(['git', '-C', clone, 'commit-tree', tree, '-p', dev, '-m', message],
                       env=env, capture=True).strip()
    for ref in (shas['dev'], shas['base'], shas['tune']):
        # The tune commit lives only in the clone; the workload modules look shas up there.
        git(clone, 'update-ref', f'refs/openbench/{ref[:8]}', ref)

    os.makedirs(os.path.join(httpdir, 'src'), exist_ok=True)
    for sha in set(shas.values()):
        # One top-level folder, as in GitHub's zipballs (the client renames it).
        git(clone, 'archive', '--format=zip', f'--prefix={ENGINE}-{sha[:8]}/',
            '-o', os.path.join(httpdir, 'src', f'{sha}.zip'), sha)
    return shas, lines, nps, bench


def forms(args, shas, lines, nps, book_name):
    """The three workloads' forms, as OpenBench's web page would post them."""
    def engine(prefix, sha, tc):
        return {f'{prefix}_engine': ENGINE, f'{prefix}_repo': REPO_URL,
                f'{prefix}_branch': sha, f'{prefix}_bench': '', f'{prefix}_network': '',
                f'{prefix}_options': 'Threads=1 Hash=16', f'{prefix}_time_control': tc}
    common = {'throughput': '1000', 'syzygy_wdl': 'DISABLED', 'syzygy_adj': 'DISABLED',
              'scale_nps': str(nps), 'info': ''}
    adjudicate = {'win_adj': 'movecount=3 score=400',
                  'draw_adj': 'movenumber=40 movecount=8 score=10'}
    # Bounds wide enough for two near-equal builds to end within a few dozen games (the LLR
    # falls by about 0.08 a game pair toward -1.39): the run tests OpenBench's path, not Elo.
    sprt = {**engine('dev', shas['dev'], args.tc), **engine('base', shas['base'], args.tc),
            **common, **adjudicate, 'priority': '3', 'scale_method': 'BASE',
            'test_mode': 'SPRT', 'test_bounds': '[0.00, 100.00]',
            'test_confidence': '[0.20, 0.20]', 'test_max_games': 'N/A',
            'book_name': book_name, 'upload_pgns': 'FALSE', 'workload_size': '4'}
    datagen = {**engine('dev', shas['dev'], 'N=5000'), **engine('base', shas['dev'], 'N=5000'),
               **common, 'priority': '2', 'scale_method': 'BASE',
               'datagen_max_games': str(args.datagen_games), 'datagen_custom_genfens': '',
               'datagen_play_reverses': 'NO', 'book_name': 'NONE', 'upload_pgns': 'COMPACT',
               'workload_size': '2', 'win_adj': 'None', 'draw_adj': 'None'}
    tune = {**engine('dev', shas['tune'], args.tc), **common, **adjudicate, 'priority': '1',
            'scale_method': 'DEV', 'spsa_inputs': '\n'.join(lines),
            'spsa_reporting_type': 'BATCHED', 'spsa_distribution_type': 'SINGLE',
            'spsa_alpha': '0.602', 'spsa_gamma': '0.101', 'spsa_A_ratio': '0.1',
            'spsa_iterations': str(args.spsa_iterations), 'spsa_pairs_per': '2',
            'book_name': book_name, 'upload_pgns': 'FALSE'}
    return [{'kind': 'SPRT', 'path': '/test/new/', 'form': sprt},
            {'kind': 'DATAGEN', 'path': '/datagen/new/', 'form': datagen},
            {'kind': 'SPSA', 'path': '/tune/new/', 'form': tune}]


def api(server, path, raw=False):
    with urllib.request.urlopen(server + path, timeout=30) as answer:
        body = answer.read()
    return body if raw else json.loads(body)


def wait_for(what, check, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if check():
                return
        except (OSError, urllib.error.URLError, ValueError):
            pass
        time.sleep(1)
    raise RunError(f'{what} did not come up within {seconds} s')


def pgn_archive(server, wid):
    """The workload's PGN archive from the API, or None while the server says to wait."""
    body = api(server, f'/api/pgns/{wid}/', raw=True)
    return None if body.startswith(b'{') else body


def count_pgn_games(tar_bytes):
    """Games in OpenBench's PGN archive of a workload (a tar of bz2-compressed PGNs)."""
    import bz2
    games = 0
    with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
        for member in tar.getmembers():
            data = tar.extractfile(member).read()
            if member.name.endswith('.bz2'):
                data = bz2.decompress(data)
            games += data.count(b'[Result ')
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--workdir', required=True, help='where OpenBench, its virtual environment '
                    'and the run\'s files go (outside the repository)')
    ap.add_argument('--openbench', default='https://github.com/AndyGrant/OpenBench',
                    help='OpenBench\'s git repository: a URL or a local clone or mirror')
    ap.add_argument('--openbench-commit', default=OPENBENCH_COMMIT)
    ap.add_argument('--fastchess', required=True, help='a fastchess binary, version 1.8.1 or later')
    ap.add_argument('--book', required=True, help='an EPD opening book (e.g. 2moves_v1.epd)')
    ap.add_argument('--repo', default=ROOT, help='the Threefold repository (default: this one)')
    ap.add_argument('--dev', default='HEAD')
    ap.add_argument('--base', default='HEAD~1')
    ap.add_argument('--spsa', default=SPSA_PARAMS, help='the tunable numbers the SPSA moves')
    ap.add_argument('--spsa-iterations', type=int, default=8, help='2 game pairs each')
    ap.add_argument('--datagen-games', type=int, default=32)
    ap.add_argument('--tc', default='5.0+0.05', help='the SPRT\'s and the SPSA\'s time control')
    ap.add_argument('--threads', type=int, default=2, help='the client\'s -T (at least 2)')
    ap.add_argument('--port', type=int, default=8000)
    ap.add_argument('--http-port', type=int, default=8765)
    ap.add_argument('--minutes', type=float, default=60, help='give up after this long')
    args = ap.parse_args()
    for path in (args.fastchess, args.book):
        if not os.path.isfile(path):
            ap.error(f'{path}: no such file')
    if args.threads < 2:
        ap.error('--threads: OpenBench plays an SPSA only with at least twice the engine\'s '
                 'threads (1)')
    args.fastchess, args.book = os.path.abspath(args.fastchess), os.path.abspath(args.book)
    workdir = os.path.abspath(args.workdir)
    if workdir == ROOT or workdir.startswith(ROOT + os.sep):
        ap.error('--workdir must be outside the repository')
    os.makedirs(workdir, exist_ok=True)

    ob = os.path.join(workdir, 'OpenBench')
    httpdir = os.path.join(workdir, 'http')
    server = f'http://127.0.0.1:{args.port}'
    zip_root = f'http://127.0.0.1:{args.http_port}'
    book_name = os.path.basename(args.book)
    processes = Processes()
    results = {'openbench_commit': args.openbench_commit}
    try:
        started = time.time()
        install_openbench(args, ob)
        python = install_packages(args, os.path.join(workdir, 'venv'), ob)
        shas, lines, nps, bench = prepare_sources(args, os.path.join(workdir, 'threefold'),
                                                  httpdir)
        results.update(shas=shas, tune_bench=bench, scale_nps=nps, spsa_inputs=lines)
        log(f'dev {shas["dev"][:8]}, base {shas["base"][:8]}, tune {shas["tune"][:8]} '
            f'(bench {bench}, {nps} nps in {args.threads} copies)')
        configure_openbench(args, ob, book_name, nps, zip_root)

        manage = [python, 'manage.py']
        run(manage + ['migrate', '--noinput', '-v', '0'], cwd=ob)
        run(manage + ['shell', '-c', (
            'from django.contrib.auth.models import User\n'
            'from OpenBench.models import Profile\n'
            f'u = User.objects.create_user("{USER}", "local@localhost", "{PASSWORD}")\n'
            'Profile.objects.create(user=u, enabled=True, approver=True)\n')], cwd=ob)
        processes.start('http server', [sys.executable, '-m', 'http.server', str(args.http_port),
                                        '--bind', '127.0.0.1', '--directory', httpdir],
                        workdir, os.path.join(workdir, 'http.log'))
        processes.start('OpenBench server', manage + ['runserver', f'127.0.0.1:{args.port}',
                                                      '--noreload'],
                        ob, os.path.join(workdir, 'server.log'))
        wait_for('the OpenBench server', lambda: api(server, '/api/config/'), 60)

        workloads = forms(args, shas, lines, nps, book_name)
        spec_path = os.path.join(workdir, 'workloads.json')
        json.dump({'repo': os.path.join(workdir, 'threefold'),
                   'zip_url': zip_root + '/src/%s.zip', 'username': USER,
                   'password': PASSWORD, 'workloads': workloads}, open(spec_path, 'w'))
        script = os.path.join(HERE, 'ob_workloads.py')
        out = subprocess.run(manage + ['shell', '-c', f'exec(open({script!r}).read())'], cwd=ob,
                             env=dict(os.environ, OB_WORKLOADS=spec_path),
                             capture_output=True, text=True)
        found = [line for line in out.stdout.splitlines() if line.startswith('OPENBENCH-')]
        if out.returncode != 0 or not found or not found[-1].startswith('OPENBENCH-WORKLOADS'):
            raise RunError('creating the workloads: ' + (found[-1] if found else out.stderr[-2000:]))
        ids = json.loads(found[-1].split(' ', 1)[1])
        for workload, wid in zip(workloads, ids):
            workload['id'] = wid
            page = {'SPRT': 'test', 'DATAGEN': 'datagen', 'SPSA': 'tune'}[workload['kind']]
            log(f'{workload["kind"]}: workload {wid}, {server}/{page}/{wid}/')

        client_env = dict(os.environ, CARGO_NET_OFFLINE='true')
        client = processes.start('OpenBench client', [
            python, 'client.py', '-U', USER, '-P', PASSWORD, '-S', server, '-T',
            str(args.threads), '-N', '1', '--no-client-downloads', '--fleet'],
            os.path.join(ob, 'Client'), os.path.join(workdir, 'client.log'), env=client_env)

        deadline = started + 60 * args.minutes
        while True:
            status = {w['id']: api(server, f'/api/workload/{w["id"]}/info/')['info']
                      for w in workloads}
            line = ', '.join(f'{w["kind"]} {status[w["id"]]["games"]} games'
                             + (' done' if status[w['id']]['finished'] else '')
                             for w in workloads)
            log(f'{time.strftime("%H:%M:%S")} {line}')
            if all(info['finished'] for info in status.values()):
                break
            if client.poll() is not None:
                raise RunError(f'the client stopped (status {client.returncode}) before the '
                               f'workloads finished: see {workdir}/client.log')
            if time.time() > deadline:
                raise RunError(f'not finished within {args.minutes} minutes')
            time.sleep(15)

        ok = True
        for workload in workloads:
            wid, info = workload['id'], status[workload['id']]
            machines = api(server, f'/api/workload/{wid}/results/')
            entry = {key: info.get(key) for key in (
                'games', 'tri', 'penta', 'passed', 'failed', 'finished', 'error',
                'currentllr', 'lowerllr', 'upperllr', 'test_mode', 'max_games')}
            entry['machines'] = machines
            faults = sum(row['timeloss'] + row['crashes'] for row in machines['results'])
            entry['time_losses_and_crashes'] = faults
            if workload['kind'] == 'SPSA':
                entry['outputs'] = api(server, f'/api/spsa/{wid}/outputs/', raw=True).decode()
                entry['digest'] = api(server, f'/api/spsa/{wid}/digest/', raw=True).decode()
                ok &= bool(entry['outputs'].strip())
            if workload['kind'] == 'SPRT':
                ok &= bool(info.get('passed') or info.get('failed'))
            if workload['kind'] == 'DATAGEN':
                # The server hands the games out once they are all filed into the workload's
                # archive and no machine has been on the workload for two minutes.
                archive = []
                wait_for('the datagen games from /api/pgns/',
                         lambda: archive.append(pgn_archive(server, wid)) or archive[-1], 300)
                entry['pgn_games'] = count_pgn_games(archive[-1])
                ok &= entry['pgn_games'] >= args.datagen_games
            ok &= bool(info.get('games')) and faults == 0 and not info.get('error')
            results[workload['kind']] = entry
            log(f'{workload["kind"]} {wid}: ' + json.dumps(
                {k: v for k, v in entry.items() if k not in ('machines', 'digest')}))
        results['seconds'] = round(time.time() - started)
        results['ok'] = ok
        json.dump(results, open(os.path.join(workdir, 'results.json'), 'w'), indent=2)
        log(f'results in {workdir}/results.json; {"all three finished" if ok else "FAILED"}')
        return 0 if ok else 1
    except (RunError, subprocess.CalledProcessError) as error:
        log(f'run_local.py: {error}')
        return 1
    finally:
        if os.path.isdir(os.path.join(ob, 'Client')):
            open(os.path.join(ob, 'Client', 'openbench.exit'), 'w').close()
        processes.stop_all()


if __name__ == '__main__':
    sys.exit(main())
