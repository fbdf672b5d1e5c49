"""Images drawn in a worker process (bot.render.pool): the same PNG bytes as drawn in the
bot's process, a thread when configured with 0 processes, and a dead worker costs one
drawing done in a thread, not an error."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from bot.config import ConfigError, load_settings
from bot.engine.cards import parse_cards
from bot.render import pool
from bot.render.images import render_hand, render_showdown

CARDS = parse_cards("As 2d 3c 4h 5s 9c Kd")
LABEL = "Razz · first 3 down (only you), then 4 up (everyone)"


@pytest.fixture
def one_process() -> Iterator[None]:
    pool.configure(1)
    yield
    pool.shutdown()


def _worker_pid() -> int:
    return os.getpid()


async def test_hand_drawn_by_the_worker_process_is_byte_identical(one_process: None) -> None:
    png = await pool.render(render_hand, CARDS, label=LABEL)
    assert png == render_hand(CARDS, label=LABEL)
    assert await pool.render(_worker_pid) != os.getpid()  # not drawn in this process


async def test_showdown_drawn_by_the_worker_process_is_byte_identical(one_process: None) -> None:
    hands = (("alice", CARDS[:5], "7-5 low"), ("bob", CARDS[2:7], "K low"))
    png = await pool.render(render_showdown, hands, winner_indexes={0})
    assert png == render_showdown(hands, winner_indexes={0})


async def test_zero_processes_draw_in_a_thread_of_this_process() -> None:
    pool.configure(0)
    try:
        assert pool.processes() == 0
        assert await pool.render(_worker_pid) == os.getpid()
        assert await pool.render(render_hand, CARDS, label=LABEL) == render_hand(CARDS, label=LABEL)
    finally:
        pool.configure(None)


async def test_a_dead_worker_costs_one_drawing_in_a_thread_then_a_new_worker(
    one_process: None,
) -> None:
    await pool.start()
    victim = await pool.render(_worker_pid)
    os.kill(victim, signal.SIGKILL)
    # the drawing that meets the broken pool is done here instead, not lost
    assert await pool.render(render_hand, CARDS, label=LABEL) == render_hand(CARDS, label=LABEL)
    fresh = await pool.render(_worker_pid)
    assert fresh not in (victim, os.getpid())


async def test_drawing_errors_reach_the_caller_as_they_are(one_process: None) -> None:
    with pytest.raises(ValueError, match="empty"):
        await pool.render(render_hand, ())


def test_render_processes_setting_out_of_range_is_refused_with_its_name() -> None:
    with pytest.raises(ConfigError, match=r"ui\.render_processes"):
        load_settings(env={"HOMEGAME_UI__RENDER_PROCESSES": "-1"})
    with pytest.raises(ConfigError, match=r"ui\.render_processes"):
        load_settings(env={"HOMEGAME_UI__RENDER_PROCESSES": "9"})
    assert load_settings(env={"HOMEGAME_UI__RENDER_PROCESSES": "0"}).ui.render_processes == 0
    with pytest.raises(ValueError, match=r"0\.\.8"):
        pool.configure(9)


async def test_no_worker_processes_possible_means_drawing_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_semaphores(method: str) -> object:
        raise OSError("no /dev/shm here")

    pool.shutdown()
    pool.configure(1)
    monkeypatch.setattr(pool.multiprocessing, "get_context", no_semaphores)
    try:
        assert await pool.render(render_hand, CARDS, label=LABEL) == render_hand(CARDS, label=LABEL)
        assert pool.processes() == 0 and await pool.render(_worker_pid) == os.getpid()
    finally:
        pool.configure(None)


async def test_ctrl_c_in_the_terminal_does_not_stop_a_worker(one_process: None) -> None:
    await pool.start()
    worker = await pool.render(_worker_pid)
    os.kill(worker, signal.SIGINT)  # a terminal sends it to the whole process group
    # no sleep to let it land: the worker meets a pending signal before it can take the
    # next job, so the job below answers only after the signal was dealt with
    assert await pool.render(_worker_pid) == worker
    assert await pool.render(_worker_pid) == worker
