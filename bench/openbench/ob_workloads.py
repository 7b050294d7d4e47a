"""Creates the local run's workloads inside OpenBench's own Django process.

Run by `run_local.py` as `manage.py shell -c "exec(open(THIS).read())"` with the environment
variable OB_WORKLOADS naming a JSON file:

    {"repo": "<Threefold clone>", "zip_url": "http://127.0.0.1:PORT/src/%s.zip",
     "username": "...", "password": "...",
     "workloads": [{"path": "/test/new/", "form": {...}}, ...]}

Each form is posted to OpenBench's own view through Django's test client, so the server's
validation runs as it does for a developer's browser. Two stand-ins, both for GitHub:

- the workload modules look a commit up through GitHub's API (its sha, and its message for the
  bench); here a `requests` look-alike answers from the local clone instead;
- the client downloads each engine's source from the URL the server stored (GitHub's zipball);
  here each engine's `source` is pointed at a zip of the same commit on a local HTTP server.

Prints one line `OPENBENCH-WORKLOADS [ids]` when every workload was created, or the server's
error for the first that was not (and exits with status 1).
"""
import json
import os
import subprocess
import sys

from django.test import Client

# OpenBench.views first, as the server's URL table loads it: the workload modules and the views
# import each other, and a workload module imported first fails half-initialised.
import OpenBench.views  # noqa: F401
import OpenBench.workloads.create_workload as create_module
import OpenBench.workloads.verify_workload as verify_module
from OpenBench.models import Test

SPEC = json.load(open(os.environ['OB_WORKLOADS']))


def git(*args):
    return subprocess.run(['git', '-C', SPEC['repo'], *args], capture_output=True, text=True,
                          check=True).stdout


class Answer:
    """What `requests.get(...)` returns, as far as the workload modules read it."""

    def __init__(self, data):
        self.data = data

    def json(self):
        return self.data


class LocalGitHub:
    """Answers the two GitHub API calls the workload modules make, from the local clone."""

    @staticmethod
    def get(url, headers=None, **_):
        kind, ref = url.rstrip('/').split('/')[-2:]
        if kind == 'compare':  # "is dev behind base?": only a warning on the page
            return Answer({'ahead_by': 0})
        sha = git('rev-parse', '--verify', ref + '^{commit}').strip()
        commit = {'sha': sha, 'commit': {'message': git('log', '-1', '--format=%B', sha)}}
        return Answer({'name': ref, 'commit': commit} if kind == 'branches' else commit)


verify_module.requests = LocalGitHub
create_module.requests = LocalGitHub

client = Client()
if not client.login(username=SPEC['username'], password=SPEC['password']):
    print('OPENBENCH-ERROR the run\'s user cannot log in')
    sys.exit(1)

ids = []
for workload in SPEC['workloads']:
    before = set(Test.objects.values_list('id', flat=True))
    client.post(workload['path'], workload['form'])
    created = set(Test.objects.values_list('id', flat=True)) - before
    if len(created) != 1:
        print('OPENBENCH-ERROR %s: %s' % (workload['path'], client.session.get('error_message')))
        sys.exit(1)
    test = Test.objects.get(id=created.pop())
    if not test.approved:
        print('OPENBENCH-ERROR workload %d was not approved' % test.id)
        sys.exit(1)
    for engine in {test.dev, test.base}:
        engine.source = SPEC['zip_url'] % engine.sha
        engine.save()
    ids.append(test.id)

print('OPENBENCH-WORKLOADS %s' % json.dumps(ids))
