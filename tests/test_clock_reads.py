"""Issue 20, "the shape of the code": every clock read goes through the injected clock (no
SQLite ``'now'``, no direct ``time.time()`` outside the composition root), so a test can
move time for the whole bot (tests/discord/test_one_clock.py does).

The scan reads the code with ``ast`` (comments and docstrings say "now" freely) and fails
on a call that reads the time of day:

- ``time.time()``, ``time.time_ns()``, ``time.monotonic()``/``_ns()`` (an interval clock the
  bot could compare with stored times by mistake), ``time.gmtime()``, ``time.localtime()``,
  ``time.ctime()``, ``time.asctime()`` and ``time.strftime(fmt)`` without the time to
  format, also when imported by name (``from time import time``);
- ``datetime.now()``, ``datetime.utcnow()``, ``datetime.today()``, ``date.today()`` (however
  the module is imported), ``discord.utils.utcnow()``;
- in SQL, a string constant or a migration with ``'now'``, ``CURRENT_TIMESTAMP``,
  ``CURRENT_DATE``, ``CURRENT_TIME`` or ``unixepoch()``: SQLite's clock, which no test moves
  (every insert passes the store's ``now()`` instead).

What stays allowed, and why:

- a reference, not a call: ``clock: Callable[[], float] = time.time`` is how a constructor
  says what it is given when nobody injects a clock; the composition roots inject one;
- ``time.perf_counter()``: a duration measured for a report (the simulation's "seconds"),
  never a time of day, never stored;
- ``loop.time()`` (asyncio's own clock) to bound a wait or coalesce edits: the bot's timers
  sleep through an injected ``sleep`` and compare deadlines on the injected clock;
- :data:`ALLOWED`: the composition roots (each ``python -m bot`` command builds its
  objects and gives them the wall clock), the sandbox's virtual clock (started once at the
  wall time), a terminal progress bar's redraw throttle, and the fake Discord (the other
  side of the wire: its own clock, which tests move with ``FakeDiscord.advance``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ALLOWED = {
    "bot/__main__.py": "the composition root of every command",
    "bot/cli/": "each `python -m bot` command is the composition root of what it runs",
    "bot/ops/sandbox.py": "the sandbox builds its own bot: its virtual clock starts at the"
    " wall time once, then moves only to deadlines",
    "bot/tables/sim.py": "Progress: a terminal progress bar's redraw throttle (monotonic)",
    "bot/testing/": "the fake Discord: the server's side, with its own wall clock",
}

TIME_OF_DAY = {"time", "time_ns", "monotonic", "monotonic_ns"}
NOW_WITHOUT_ARGUMENT = {"gmtime", "localtime", "ctime", "asctime"}
"""These convert the time they are given; without one they read the clock."""
DATETIME_NOW = {"now", "utcnow", "today"}
SQL_NOW = re.compile(r"'now'|\bCURRENT_(TIMESTAMP|DATE|TIME)\b|\bunixepoch\s*\(", re.I)


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for a Name/Attribute chain, else ""."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def clock_reads(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, what) of every direct clock read in a module (see the module's docstring)."""
    time_modules = {"time"}
    time_names: dict[str, str] = {}  # local name -> time function (from time import time)
    datetime_names = {"datetime", "date"}  # classes; also dt.datetime, datetime.datetime
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "time":
                    time_modules.add(alias.asname or "time")
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            for alias in node.names:
                time_names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module == "datetime":
            datetime_names |= {a.asname or a.name for a in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if SQL_NOW.search(node.value):
                yield node.lineno, f"SQLite's clock in {node.value.strip()[:60]!r}"
            continue
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        head, _, last = name.rpartition(".")
        if head in time_modules:
            func = last
        elif not head and name in time_names:
            func = time_names[name]
        else:
            func = ""
        reads = (
            func in TIME_OF_DAY
            or (func in NOW_WITHOUT_ARGUMENT and not node.args)
            or (func == "strftime" and len(node.args) < 2)
            or (last in DATETIME_NOW and head.rpartition(".")[2] in datetime_names)
            or name.endswith("utils.utcnow")
        )
        if reads:
            yield node.lineno, f"{name}()"


def _modules() -> Iterator[tuple[str, Path]]:
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path


def _allowed(rel: str) -> bool:
    return any(rel == a or (a.endswith("/") and rel.startswith(a)) for a in ALLOWED)


def test_issue20_no_clock_read_outside_the_composition_roots() -> None:
    found = [
        f"{rel}:{line}: {what}"
        for rel, path in _modules()
        if not _allowed(rel)
        for line, what in clock_reads(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, "clock reads that bypass the injected clock:\n" + "\n".join(found)


def test_issue20_no_migration_reads_sqlites_clock() -> None:
    """No table default or trigger stamps a row with SQLite's time: the store passes its
    clock's ``now()`` to every insert (a row written at a moved clock has the moved time)."""
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted((ROOT / "bot/store/migrations").glob("*.sql"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SQL_NOW.search(line.split("--", 1)[0])
    ]
    assert not found, "\n".join(found)


def test_issue20_the_scan_finds_each_kind_of_clock_read() -> None:
    sample = ast.parse(
        "import time\n"
        "import datetime as dt\n"
        "from datetime import UTC, datetime, date\n"
        "from time import time as now, gmtime\n"
        "import discord\n"
        "a = time.time()\n"
        "b = now()\n"
        "c = datetime.now(UTC)\n"
        "d = dt.datetime.utcnow()\n"
        "e = date.today()\n"
        "f = time.strftime('%Y')\n"
        "g = gmtime()\n"
        "h = discord.utils.utcnow()\n"
        "i = time.monotonic()\n"
        "sql = \"INSERT INTO t (at) VALUES (strftime('%s', 'now'))\"\n"
        "sql2 = 'UPDATE t SET at = CURRENT_TIMESTAMP'\n"
        # allowed: references, a given time, a duration, asyncio's clock
        "def f(clock=time.time, loop=None):\n"
        "    x = time.strftime('%Y', time.gmtime(clock()))\n"
        "    y = time.perf_counter()\n"
        "    z = loop.time()\n"
        "    w = datetime.fromtimestamp(clock(), UTC)\n"
        "    return ('now', 'the game being played')\n"
    )
    assert sorted(line for line, _ in clock_reads(sample)) == list(range(6, 17))
