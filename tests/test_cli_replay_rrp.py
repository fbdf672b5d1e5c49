"""``python -m bot replay`` and Robert's Rules of Poker (issue 18): hand histories that
play by RRP, of every betting variant, replay to their recorded finishing stacks, including
what pokerkit 0.7.7 refuses (heads-up raise wars in limit games, an all-in of half a bet
that reopens the betting, a short all-in bet completed to a full bet, separate pots with
the same winners, a short all-in big blind); a history that breaks these rules is refused
with a line naming the file and the action (exit 2).

The histories are written by hand, with the finishing stacks worked out in the comments.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

# Fixed-limit Hold'em heads-up: p1 the big blind, p2 the button. Six raises before the flop
# (pokerkit stops at four): 14 each in, p1's aces win 28.
FT_HEADS_UP_WAR = """variant = 'FT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = ['d dh p1 AcAd', 'd dh p2 7c2h', 'p2 cbr 4', 'p1 cbr 6', 'p2 cbr 8', 'p1 cbr 10',
  'p2 cbr 12', 'p1 cbr 14', 'p2 cc', 'd db Ks9d4h', 'p1 cc', 'p2 cc', 'd db 3s', 'p1 cc',
  'p2 cc', 'd db 8c', 'p1 cc', 'p2 cc']
finishing_stacks = [114, 86]
"""

# Fixed limit, three players, the flop (bet 2): p1 bets, p2 goes all in for 3 (a raise of
# 1, half a bet: a raise by RRP), p3 raises to 5 and p1, who had bet, raises again to 7
# (pokerkit refuses it). p1 puts in 9, p2 5, p3 9: the main pot 15 and the side pot 8 go
# to p1's aces.
FT_HALF_BET_REOPENS = """variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 5, 100]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 QcQd', 'p3 cc', 'p1 cc', 'p2 cc',
  'd db 2s5h9d', 'p1 cbr 2', 'p2 cbr 3', 'p3 cbr 5', 'p1 cbr 7', 'p3 cc', 'd db Tc',
  'p1 cc', 'p3 cc', 'd db 3h', 'p1 cc', 'p3 cc']
finishing_stacks = [114, 0, 91]
"""

# Fixed limit, the turn (bet 4): p2 bets all in for 1 (less than half a bet), p3 completes
# the bet to 4 (pokerkit asks for 5), p1 calls. p1: 6 in, p2 3, p3 6; p1 wins 15.
FT_SHORT_BET_COMPLETED = """variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 3, 100]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 QcQd', 'p3 cc', 'p1 cc', 'p2 cc',
  'd db 2s5h9d', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Tc', 'p1 cc', 'p2 cbr 1', 'p3 cbr 4',
  'p1 cc', 'd db 3h', 'p1 cc', 'p3 cc']
finishing_stacks = [109, 0, 94]
"""

# No-limit, five players: p3 all in for 15; p2 and p4 tie with A-K-Q-J-10 for the main
# pot (65) and the side pot (53). Each pot's odd chip goes to p2, the first winner left of
# the button: 33 + 27 and 32 + 26 (pokerkit pays the two pots as one: 59 each).
NT_SEPARATE_POTS = """variant = 'NT'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, 0, 0]
min_bet = 10
starting_stacks = [100, 100, 15, 100, 100]
actions = ['d dh p1 5c6c', 'd dh p2 Tc3d', 'd dh p3 2s2h', 'd dh p4 Td4c', 'd dh p5 7c8c',
  'p3 cbr 15', 'p4 cc', 'p5 cc', 'p1 f', 'p2 cc', 'd db AhKdQc', 'p2 cbr 11', 'p4 cc',
  'p5 cc', 'd db Js', 'p2 cbr 10', 'p4 cc', 'p5 f', 'd db 9h', 'p2 cc', 'p4 cc',
  'p2 sm Tc3d', 'p3 sm 2s2h', 'p4 sm Td4c']
finishing_stacks = [95, 124, 0, 122, 74]
"""

# No-limit: p2's big blind is all in for 6. p3 must call the full big blind (10, RRP) and
# p1 too: the main pot 18 and a side pot of 8 between p1 and p3; p1's aces take both.
NT_SHORT_BIG_BLIND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [500, 6, 500]
actions = ['d dh p1 AsAd', 'd dh p2 2c7d', 'd dh p3 KsKd', 'p3 cc', 'p1 cc', 'd db QhJc4d',
  'p1 cc', 'p3 cc', 'd db 3s', 'p1 cc', 'p3 cc', 'd db 9h', 'p1 cc', 'p3 cc']
finishing_stacks = [516, 0, 490]
"""

# Pot-limit Omaha, a dead small blind (our extension, docs/hand-history.md): p1 posts the
# big blind, nobody the small blind; p4 is new and posts a big blind out of turn, which is
# live (p4 checks its option). p2 and p3 fold; p1 and p4 check it down: p1's 9-high
# straight (9-8 in hand) beats p4's three kings and takes the pot of 20.
PO_DEAD_SMALL_AND_POST = """variant = 'PO'
antes = [0, 0, 0, 0]
blinds_or_straddles = [10, 0, 0, 10]
_posted_big_blinds = [4]
min_bet = 10
starting_stacks = [200, 200, 200, 200]
actions = ['d dh p1 9s8s2c2d', 'd dh p2 3c3d4c4d', 'd dh p3 5c5d6c6d', 'd dh p4 KhKdJcJd',
  'p2 f', 'p3 f', 'p4 cc', 'p1 cc', 'd db 7h6hKs', 'p1 cc', 'p4 cc', 'd db 5s', 'p1 cc',
  'p4 cc', 'd db 2h', 'p1 cc', 'p4 cc']
finishing_stacks = [210, 200, 200, 190]
"""

# Seven-card Stud heads-up: the 2♣ brings in; completion and five raises (pokerkit stops at
# four); p2's spade flush beats p1's aces: 2 antes + 12 each = 26.
F7S_HEADS_UP_WAR = """variant = 'F7S'
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = ['d dh p1 AdAh2c', 'd dh p2 KcKh9s', 'p1 pb', 'p2 cbr 2', 'p1 cbr 4', 'p2 cbr 6',
  'p1 cbr 8', 'p2 cbr 10', 'p1 cbr 12', 'p2 cc', 'd dh p1 3d', 'd dh p2 4s', 'p2 cc',
  'p1 cc', 'd dh p1 5h', 'd dh p2 6s', 'p2 cc', 'p1 cc', 'd dh p1 7d', 'd dh p2 8s',
  'p2 cc', 'p1 cc', 'd dh p1 Jd', 'd dh p2 Qs', 'p2 cc', 'p1 cc']
finishing_stacks = [37, 63]
"""

# Razz: p2's K♠ brings in; p3, all in for 4 when completing (less than half of the bet of
# 10), does not complete; p1 completes to 10 (pokerkit asks for 14) and p2 calls. p3's
# 6-4-3-2-A wins the main pot (3 x 5 = 15), p1's 7-4-3-2-A the side pot (2 x 6 = 12).
FR_SHORT_COMPLETION = """variant = 'FR'
antes = [1, 1, 1]
bring_in = 2
small_bet = 10
big_bet = 20
starting_stacks = [100, 100, 5]
actions = ['d dh p1 Ac2c3d', 'd dh p2 9h9dKs', 'd dh p3 As2s3s', 'p2 pb', 'p3 cbr 4',
  'p1 cbr 10', 'p2 cc', 'd dh p1 4d', 'd dh p2 Kd', 'd dh p3 4s', 'p1 cc', 'p2 cc',
  'd dh p1 7h', 'd dh p2 Qc', 'd dh p3 6s', 'p1 cc', 'p2 cc', 'd dh p1 8h', 'd dh p2 Qd',
  'd dh p3 Jh', 'p1 cc', 'p2 cc', 'd dh p1 Tc', 'd dh p2 Jd', 'd dh p3 Jc', 'p1 cc',
  'p2 cc']
finishing_stacks = [101, 89, 15]
"""

# Fixed-limit Omaha Hi-Lo heads-up: six raises before the flop; p1's aces with an 8-7-3-2-A
# low scoop the 28 chips.
FO8_HEADS_UP_WAR = """variant = 'FO/8'
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = ['d dh p1 AcAd2c3d', 'd dh p2 KsKhQsQh', 'p2 cbr 4', 'p1 cbr 6', 'p2 cbr 8',
  'p1 cbr 10', 'p2 cbr 12', 'p1 cbr 14', 'p2 cc', 'd db Ah7s8d', 'p1 cc', 'p2 cc', 'd db Kc',
  'p1 cc', 'p2 cc', 'd db 9h', 'p1 cc', 'p2 cc']
finishing_stacks = [114, 86]
"""

# Stud Hi-Lo, 4th street (bet 2): p1 bets, p2 goes all in for 3 (half a bet over it: a
# raise), p3 raises to 5 and p1, who had bet, raises again to 7 (pokerkit refuses it). No
# low: p2's club flush takes the main pot (15), p3's king-high straight the side pot (8).
F7S8_HALF_BET_REOPENS = """variant = 'F7S/8'
antes = [1, 1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [100, 5, 100]
actions = ['d dh p1 AcKcQd', 'd dh p2 JcJdTs', 'd dh p3 KhKdJs', 'p2 pb', 'p3 cc', 'p1 cc',
  'd dh p1 Jh', 'd dh p2 9c', 'd dh p3 Qs', 'p1 cbr 2', 'p2 cbr 3', 'p3 cbr 5', 'p1 cbr 7',
  'p3 cc', 'd dh p1 Ah', 'd dh p2 8c', 'd dh p3 Tc', 'p1 cc', 'p3 cc', 'd dh p1 7d',
  'd dh p2 6c', 'd dh p3 9s', 'p1 cc', 'p3 cc', 'd dh p1 2h', 'd dh p2 5c', 'd dh p3 3s',
  'p1 cc', 'p3 cc']
finishing_stacks = [91, 15, 99]
"""

ACCEPTED = {
    "ft-heads-up-war.phh": FT_HEADS_UP_WAR,
    "ft-half-bet-reopens.phh": FT_HALF_BET_REOPENS,
    "ft-short-bet-completed.phh": FT_SHORT_BET_COMPLETED,
    "nt-separate-pots.phh": NT_SEPARATE_POTS,
    "nt-short-big-blind.phh": NT_SHORT_BIG_BLIND,
    "po-dead-small-and-post.phh": PO_DEAD_SMALL_AND_POST,
    "fo8-heads-up-war.phh": FO8_HEADS_UP_WAR,
    "f7s-heads-up-war.phh": F7S_HEADS_UP_WAR,
    "f7s8-half-bet-reopens.phh": F7S8_HALF_BET_REOPENS,
    "fr-short-completion.phh": FR_SHORT_COMPLETION,
}

# Histories that break the rules, each with the line the replay must print.
REFUSED = {
    # the blind and three raises, three-handed: a fourth raise is refused
    "ft-fourth-raise.phh": (
        FT_HALF_BET_REOPENS.replace(
            "starting_stacks = [100, 5, 100]", "starting_stacks = [100, 100, 100]"
        ).replace(
            "'p3 cc', 'p1 cc', 'p2 cc',\n  'd db 2s5h9d'",
            "'p3 cbr 4', 'p1 cbr 6', 'p2 cbr 8', 'p3 cbr 10',\n  'd db 2s5h9d'",
        ),
        "ft-fourth-raise.phh: action 7 'p3 cbr 10': cannot raise: the betting is capped"
        " (one bet and three raises)",
    ),
    # an all-in of less than half a bet does not reopen the betting for p1, who bet
    "ft-short-all-in-reraised.phh": (
        FT_SHORT_BET_COMPLETED.replace(
            "starting_stacks = [100, 3, 100]", "starting_stacks = [100, 7, 100]"
        ).replace(
            "'p1 cc', 'p2 cbr 1', 'p3 cbr 4',\n  'p1 cc'",
            "'p1 cbr 4', 'p2 cbr 5', 'p3 cc',\n  'p1 cbr 9'",
        ),
        "ft-short-all-in-reraised.phh: action 15 'p1 cbr 9': cannot raise: a short all-in"
        " cannot be raised",
    ),
    # pokerkit's minimum raise over a short all-in big blind (6 + 10): RRP counts from 10
    "nt-raise-over-short-blind.phh": (
        NT_SHORT_BIG_BLIND.replace("'p3 cc', 'p1 cc', 'd db", "'p3 cbr 16', 'p1 cc', 'd db"),
        "nt-raise-over-short-blind.phh: action 4 'p3 cbr 16': cannot raise to 16: the legal"
        " range is 20 to 500",
    ),
    # Razz keeps its cap heads-up (RULES 4.6)
    "fr-heads-up-fifth.phh": (
        F7S_HEADS_UP_WAR.replace("variant = 'F7S'", "variant = 'FR'").replace(
            "'d dh p1 AdAh2c', 'd dh p2 KcKh9s'", "'d dh p1 AdAhKc', 'd dh p2 2c3h9s'"
        ),
        "fr-heads-up-fifth.phh: action 8 'p2 cbr 10': cannot raise: the betting is capped"
        " (one bet and three raises)",
    ),
}


def _write(tmp_path: Path, files: dict[str, str]) -> list[str]:
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_replay_accepts_and_reproduces_rrp_histories_of_every_betting_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _write(tmp_path, ACCEPTED)
    assert main(["replay", *paths]) == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["file"] for r in rows] == paths
    assert [r["match"] for r in rows] == [True] * len(paths), rows


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_replay_refuses_a_history_that_breaks_the_rules_naming_the_action(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, line = REFUSED[name]
    (path,) = _write(tmp_path, {name: text})
    assert main(["replay", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == line


def test_replay_command_line_runs_the_rrp_histories(tmp_path: Path) -> None:
    paths = _write(tmp_path, {**ACCEPTED, "ft-fourth-raise.phh": REFUSED["ft-fourth-raise.phh"][0]})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", *paths],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout.count('"match": true') == len(ACCEPTED)
    assert done.stderr.strip() == REFUSED["ft-fourth-raise.phh"][1]
