"""Where the games of a simulation are played: in this process, in worker processes on this
machine (``--jobs``), or on a Dask distributed cluster (``--scheduler``).

``--jobs`` uses the standard library's process pool (docs/decisions.md CORE-35): no extra
dependency, and a worker costs one interpreter start. Dask is imported only for ``--scheduler``.
Either way a game whose worker dies is played again, and a game is counted once: a record is
taken only from a finished game, and the run (``runner.run``) drops any duplicate.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import re
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from hexwar.core.simulation.runner import GameTask, SimulationError, play_task

#: a scheduler's address: PROTOCOL://WHERE (Dask's own forms) or HOST:PORT
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx|inproc)://[^\s]+)|(?:[A-Za-z0-9_.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}")
#: how often one game may take its worker down with it before the run gives up on it
MAX_ATTEMPTS = 3


class SerialBackend:
    """Every game in this process, one after another (``--jobs 1``)."""

    name = "this process"
    workers = 1

    def run(self, tasks: Sequence[GameTask]) -> Iterator[Mapping[str, Any]]:
        for task in tasks:
            yield play_task(task)

    def close(self) -> None:
        pass


def _worker_start(parent: int) -> None:
    """Set up a worker process. Ctrl-C reaches the whole process group: the parent decides what
    stops and ends the workers itself, so a worker ignores it. A parent killed outright (kill
    -9) cannot end them: a worker whose parent is gone ends itself within a second."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="hexwar-parent-watch", daemon=True).start()


class ProcessBackend:
    """Games in ``jobs`` worker processes on this machine.

    A worker that dies (killed, out of memory) breaks the pool: every game then in flight is
    played again in a new pool; no finished game is lost, since each was taken when it
    finished. A game that kills its worker ``MAX_ATTEMPTS`` times stops the run.
    """

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise SimulationError(f"--jobs must be at least 1, not {jobs}")
        self.workers = jobs
        self.name = f"{jobs} local processes"
        self.restarts = 0
        self._pool: ProcessPoolExecutor | None = None
        # spawn, not fork: the parent may hold threads (a progress bar), and forking a threaded
        # process is unsafe; it is also the one start method of every platform
        self._context = multiprocessing.get_context("spawn")

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                   initializer=_worker_start, initargs=(os.getpid(),))

    def run(self, tasks: Sequence[GameTask]) -> Iterator[Mapping[str, Any]]:
        pending: deque[GameTask] = deque(tasks)
        attempts: Counter[tuple[str, int]] = Counter()
        window = 2 * self.workers  # few games queued: an interruption has little to cancel
        while pending:
            pool = self._pool = self._new_pool()
            inflight: dict[Future[dict[str, Any]], GameTask] = {}
            lost: list[GameTask] = []
            while (pending or inflight) and not lost:
                while pending and len(inflight) < window:
                    task = pending.popleft()
                    try:
                        inflight[pool.submit(play_task, task)] = task
                    except BrokenProcessPool:  # a worker died before this game was handed out
                        lost.append(task)
                        break
                if lost or not inflight:
                    lost += inflight.values()
                    break
                finished, _ = wait(inflight, return_when=FIRST_COMPLETED)
                for fut in finished:
                    task = inflight.pop(fut)
                    exc = fut.exception()
                    if isinstance(exc, BrokenProcessPool):
                        lost.append(task)
                    elif exc is not None:
                        raise exc
                    else:
                        yield fut.result()
                if lost or getattr(pool, "_broken", False):
                    lost += inflight.values()  # the games the dead worker's pool still held
            if lost:
                self._discard_pool()
                self.restarts += 1
                for task in lost:
                    attempts[task.key] += 1
                    if attempts[task.key] >= MAX_ATTEMPTS:
                        raise SimulationError(
                            f"{task.describe()} was running when a worker process died, "
                            f"{MAX_ATTEMPTS} times; stopping (the finished games are kept)")
                # in their order, ahead of the games not yet started
                pending.extendleft(sorted(set(lost), key=lambda t: (t.index, t.variant),
                                          reverse=True))
            else:
                self._discard_pool(wait_for=True)

    def _discard_pool(self, *, wait_for: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if not wait_for:
            # end the workers now: an interrupted or broken run must not wait for their games
            for proc in list(getattr(pool, "_processes", {}).values()):
                if proc.is_alive():
                    proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        self._discard_pool()


class DaskBackend:
    """Games on a Dask distributed cluster, through its scheduler at ``address``.

    Each game is one task. The scheduler gives the games of a worker that dies to the others
    (Dask's own resilience); a game that has killed ``distributed.scheduler.allowed-failures``
    workers fails with Dask's ``KilledWorker``, which stops the run with a clear message. The
    workers must have the same hexwar and plugins installed as this machine.
    """

    def __init__(self, address: str, *, timeout: float = 10.0) -> None:
        dist = _distributed()
        if not _ADDRESS.fullmatch(address):
            raise SimulationError(f"--scheduler {address!r} is not a scheduler address: give "
                                  f"tcp://HOST:PORT (as `dask scheduler` prints it) or HOST:PORT")
        self.address = address
        self.name = f"the Dask scheduler at {address}"
        try:
            self.client: Any = dist.Client(address, timeout=f"{timeout}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SimulationError(f"--scheduler: cannot reach a Dask scheduler at {address!r} "
                                  f"within {timeout:g}s ({reason[:200]}); start one with "
                                  f"`dask scheduler` and workers with `dask worker ADDRESS`"
                                  ) from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            self.client.close()
            raise SimulationError(f"--scheduler: the Dask scheduler at {address} has no worker "
                                  f"after {timeout:g}s; start one with `dask worker {address}`"
                                  ) from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

    def run(self, tasks: Sequence[GameTask]) -> Iterator[Mapping[str, Any]]:
        dist = _distributed()
        as_completed = dist.as_completed
        KilledWorker = importlib.import_module("distributed.scheduler").KilledWorker

        futures = [self.client.submit(play_task, t, pure=False,
                                      key=f"hexwar-game-{t.variant or 'base'}-{t.index}-{t.seed}-"
                                          f"{id(self):x}")
                   for t in tasks]
        by_key = {f.key: t for f, t in zip(futures, tasks, strict=True)}
        try:
            for fut in as_completed(futures, loop=self.client.loop):
                try:
                    yield fut.result()
                except KilledWorker:
                    task = by_key[fut.key]
                    raise SimulationError(f"{task.describe()} was running on Dask workers that "
                                          f"died each time it was tried; stopping (the finished "
                                          f"games are kept)") from None
                finally:
                    fut.release()
        finally:
            for f in futures:
                if not f.done():
                    f.cancel()

    def close(self) -> None:
        self.client.close()


def _distributed() -> Any:
    """Dask distributed, imported only when a cluster is asked for (it is an optional extra,
    and slow to import); typed as ``Any``, since it ships no type hints."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise SimulationError("--scheduler needs Dask distributed, which is not installed: "
                              "pip install 'hexwar[sim]'") from None


def backend_for(jobs: int, scheduler: str | None, *, timeout: float = 10.0) -> Any:
    """The backend that ``--jobs`` and ``--scheduler`` ask for."""
    if scheduler is not None:
        if jobs != 1:
            raise SimulationError("--jobs and --scheduler do not go together: the cluster's "
                                  "workers decide how many games run at once")
        return DaskBackend(scheduler, timeout=timeout)
    if jobs < 1:
        raise SimulationError(f"--jobs must be at least 1, not {jobs}")
    return SerialBackend() if jobs == 1 else ProcessBackend(jobs)
