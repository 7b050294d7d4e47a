"""A UCI engine on raw pipes, for the bench scripts that time the engine from a GUI's side.

Each stdout line is timestamped by a reader thread as it arrives, so a script can measure
latencies (`isready` -> `readyok`, `go` -> `bestmove`) without its own reading skewing them.
"""
import queue, subprocess, threading, time


class NoAnswer(TimeoutError):
    """No matching line came within the timeout; `seen` holds the lines that did come."""

    def __init__(self, message, seen):
        super().__init__(message)
        self.seen = seen


class Engine:
    """An engine process whose stdout lines are timestamped as they arrive."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.rstrip('\n')))
        self.lines.put((time.perf_counter(), None))

    def send(self, text):
        """Writes one command line; returns the time it was sent."""
        sent = time.perf_counter()
        self.proc.stdin.write(text + '\n')
        self.proc.stdin.flush()
        return sent

    def wait_for(self, predicate, timeout=30.0):
        """Returns (arrival time, line, lines seen) of the first line satisfying predicate."""
        seen = []
        deadline = time.perf_counter() + timeout
        while True:
            left = max(deadline - time.perf_counter(), 0.0)
            try:
                at, line = self.lines.get(timeout=left)
            except queue.Empty:
                raise NoAnswer(f'no answer within {timeout} s; saw {seen[-5:]}', seen) from None
            if line is None:
                raise RuntimeError(f'engine exited; saw {seen[-5:]}')
            seen.append(line)
            if predicate(line):
                return at, line, seen

    def quit(self):
        try:
            self.send('quit')
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
