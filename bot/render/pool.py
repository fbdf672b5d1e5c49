"""Drawing PNGs away from the bot's event loop, and by default away from its process.

A card or chart image costs 5-20 ms of CPU (most of it Pillow's PNG encoder). Drawn in a
thread of the bot's process it still competes with the event loop for the GIL: each time
the loop releases it (every socket send and receive), it may wait for the drawing thread
to give it back, so under load every click's acknowledgement gets slower. A worker process
has its own interpreter: the loop never waits for it, and on a machine with two or more
cores it draws in parallel.

:func:`configure` is called once at start-up (``ui.render_processes``); :func:`render`
runs a module-level function (picklable, as are its arguments) in the pool and returns what
it returned. One pool per process, shared by whatever runs in it, started on first use
(``spawn``: safe with the store's and discord.py's threads), warmed with one drawing so the
fonts are loaded before the first real one. If a worker dies, the drawing is done in a
thread instead and the pool is started again on the next call; with 0 processes every
drawing is done in a thread.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger("homegame.render")

T = TypeVar("T")

MAX_PROCESSES = 8


def default_processes() -> int:
    """One worker when the machine has a second core; none (a thread) on a single core."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


_lock = threading.Lock()
_processes: int | None = None
_pool: ProcessPoolExecutor | None = None


def configure(processes: int | None) -> None:
    """Use ``processes`` worker processes (None: :func:`default_processes`; 0: a thread).
    A pool of another size is shut down; the new one starts on first use."""
    global _processes, _pool
    wanted = default_processes() if processes is None else processes
    if not 0 <= wanted <= MAX_PROCESSES:
        raise ValueError(f"render processes must be 0..{MAX_PROCESSES}, not {wanted}")
    with _lock:
        if wanted == _processes:
            return
        old, _pool, _processes = _pool, None, wanted
    if old is not None:
        old.shutdown(wait=False, cancel_futures=True)


def processes() -> int:
    """How many worker processes draw (after :func:`configure`; the default before)."""
    return default_processes() if _processes is None else _processes


def _warm() -> None:
    """Worker initializer: ignore Ctrl-C (the bot's process stops its workers itself; a
    terminal's SIGINT reaches the whole process group), then load Pillow and the fonts
    with one small drawing."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from bot.engine.cards import parse_cards
    from bot.render.images import render_hand

    render_hand(parse_cards("As 2d"), label="warm")


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool, _processes
    count = processes()
    if count == 0:
        return None
    with _lock:
        if _pool is None:
            try:
                _pool = ProcessPoolExecutor(
                    max_workers=count,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm,
                )
            except (OSError, ImportError, NotImplementedError) as exc:
                # e.g. no /dev/shm for multiprocessing's semaphores in a locked-down host
                log.warning("no image worker processes here (%s): drawing in threads", exc)
                _processes = 0
                return None
        return _pool


def _drop(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


async def render(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the pool (a thread when there is none, or it broke)."""
    call = functools.partial(fn, *args, **kwargs)
    pool = _get_pool()
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, call)
        except BrokenProcessPool:
            log.warning("an image worker process died; drawing in a thread this time")
            _drop(pool)
        except RuntimeError:
            # the pool was shut down under us (configure() or interpreter exit)
            log.warning("the image workers were stopped; drawing in a thread this time")
    return await asyncio.to_thread(call)


def _ready() -> bool:
    return True


async def start() -> None:
    """Start the workers now (at the bot's start-up) rather than at the first drawing, and
    wait until they are warm; a failure here only means the first drawing will retry."""
    pool = _get_pool()
    if pool is None:
        return
    try:
        await asyncio.get_running_loop().run_in_executor(pool, _ready)
    except Exception:  # a broken pool is started again by the next render()
        log.warning("the image worker process did not start", exc_info=True)
        _drop(pool)


def shutdown() -> None:
    """Stop the workers (at interpreter exit, and for tests)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)
