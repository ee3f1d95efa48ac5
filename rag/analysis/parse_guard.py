"""A process of its own where each file's tree-sitter parse is tried first, under a memory and a time limit.

tree-sitter's error recovery can take memory and time out of all proportion to a file: 20 KB of C#'s
``<T`` repeated took more than 6 GB, 64 KB of Java's ``a<`` more than 12 GB, and 48 KB of it ran 19 s
past a 5 s budget, all of it in one step at the end of the input (``ts_parser__accept`` copying every
path of the parse stack), which no progress callback interrupts. Here such a parse ends the guard's
process, not the index worker or the web server that asked: the file is read as lines, and the next
file starts a new guard. A parse the guard finished is safe to repeat where it is needed.

``refusal(grammar, function, data, seconds)`` tells whether a file parses; ``ahead`` asks for a parse
before it is wanted, so that the guard parses the next file while this process works on the one before.
The guard is started on first use and kept for the process's life (``serve``, pure Python like the rest
of ``rag.analysis``).
"""

from __future__ import annotations

import atexit
import importlib
import os
import resource
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from functools import cache
from multiprocessing.connection import Connection
from pathlib import Path

# Address space a parse may add to the guard's: 1.4 MB of real C++ headers (near the 2 MB size cap) take
# 30 MB; the hostile files above take gigabytes.
PARSE_MEMORY = 512 << 20

# How long the guard's process has to start (a Python process importing tree-sitter: a few tenths of a second).
START_SECONDS = 30.0
READY = b"ready"

# How many parses may be asked for before they are wanted (``ahead``): the guard parses the next file
# while the asking process works on the one before.
AHEAD = 2

_lock = threading.Lock()
_guard: _Guard | None = None


class _Guard:
    """The guard's process and the parses asked of it, answered in the order they were asked."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from rag.analysis.parse_guard import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            # Where ``rag`` is, whatever the asking process's working directory.
            cwd=Path(__file__).resolve().parents[2],
        )
        # The pipes' descriptors pass to the connections, which close them.
        self.requests = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.answers = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()
        # A guard that cannot start says so, rather than answering every file as too big: its first
        # word is that it is ready.
        try:
            ready = self.answers.poll(START_SECONDS) and self.answers.recv_bytes() == READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.stop()
            raise RuntimeError("the parse guard's process did not start (its error, if any, is on standard error)")
        self.pending: deque[tuple[str, str, bytes]] = deque()
        # When the first pending parse began: when the one before it was answered, or it was sent.
        self.began = 0.0

    def send(self, parse: tuple[str, str, bytes]) -> None:
        if not self.pending:
            self.began = time.monotonic()
        grammar, function, data = parse
        self.requests.send_bytes(b"\0".join((grammar.encode(), function.encode(), data)))
        self.pending.append(parse)

    def answer(self, seconds: float) -> tuple[str | None, float]:
        """Whether the first pending parse ended well within ``seconds`` of its start (None, else why not),
        and the seconds it took."""
        try:
            if not self.answers.poll(max(0.0, self.began + seconds - time.monotonic())):
                return f"its parse ran past {seconds:.2g} s", seconds
            (took,) = struct.unpack("d", self.answers.recv_bytes())
        except (EOFError, OSError):
            return f"its parse took more than {PARSE_MEMORY >> 20} MB", time.monotonic() - self.began
        self.pending.popleft()
        self.began = time.monotonic()
        return None, took

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.requests.close()
        self.answers.close()


def refusal(grammar: str, function: str, data: bytes, seconds: float) -> tuple[str | None, float]:
    """None when ``data`` parses with the grammar (module ``grammar``'s ``function()``) within ``seconds``
    and ``PARSE_MEMORY``, else why not, as the error of a file read as lines; and the seconds the parse
    took in the guard."""
    global _guard
    parse = (grammar, function, data)
    with _lock:
        lost = 0
        while True:
            guard = _guard = _guard or _Guard()
            if not guard.pending and not _sent(guard, parse):
                lost += 1
                if lost > 1:
                    raise RuntimeError("the parse guard's process ends as it starts")
                continue
            wanted = guard.pending[0] == parse
            # A parse asked ahead and not wanted after all is answered all the same, in its turn.
            reason, took = guard.answer(seconds)
            if reason is not None:
                _guard = None
                guard.stop()
            if wanted:
                return reason, took


def _forget_after_fork() -> None:
    """A forked process starts a guard of its own: the pipes stay with the process that made them."""
    global _lock, _guard
    _lock = threading.Lock()
    _guard = None


def _stop_at_exit() -> None:
    if _guard is not None:
        _guard.stop()


os.register_at_fork(after_in_child=_forget_after_fork)
atexit.register(_stop_at_exit)


def ahead(grammar: str, function: str, data: bytes) -> None:
    """Ask for a parse before ``refusal`` wants it, when fewer than ``AHEAD`` are waiting."""
    global _guard
    with _lock:
        guard = _guard = _guard or _Guard()
        if len(guard.pending) < AHEAD:
            _sent(guard, (grammar, function, data))


def _sent(guard: _Guard, parse: tuple[str, str, bytes]) -> bool:
    """Whether ``parse`` went to the guard; a guard ended from outside while it waited is let go (the lock held)."""
    global _guard
    try:
        guard.send(parse)
    except OSError:
        _guard = None
        guard.stop()
        return False
    return True


@cache
def _parser(grammar: str, function: str):
    import tree_sitter

    return tree_sitter.Parser(tree_sitter.Language(getattr(importlib.import_module(grammar), function)()))


def serve() -> None:
    """The guard's loop, on its standard input and output: parse each file asked for and answer, until
    the asking process goes."""
    requests = Connection(os.dup(sys.stdin.fileno()), writable=False)
    answers = Connection(os.dup(sys.stdout.fileno()), readable=False)
    import tree_sitter  # noqa: F401  (loaded before the limit is measured)

    try:
        limit = _address_space() + PARSE_MEMORY
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError):
        pass  # no /proc (not Linux): the time limit still holds
    answers.send_bytes(READY)
    while True:
        try:
            message = requests.recv_bytes()
        except EOFError:
            return
        grammar, function, data = message.split(b"\0", 2)
        started = time.monotonic()
        _parser(grammar.decode(), function.decode()).parse(data)
        answers.send_bytes(struct.pack("d", time.monotonic() - started))


def _address_space() -> int:
    """The process's virtual memory now, in bytes (what ``RLIMIT_AS`` counts)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()
