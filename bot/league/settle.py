"""The settle-up: who pays whom at the end of a night (or a season), in the fewest transfers,
and what each transfer is worth in money at the league's chip value.

Pure (no Discord, no SQLite). Nets are chips per member and sum to 0: a member with a
negative net owes, a positive one is owed.

The fewest transfers: a group of ``m`` members whose nets sum to 0 settles among
themselves in ``m - 1`` transfers, and never fewer (each transfer zeroes at most one
member's net, except the last of a group, which zeroes two). So the minimum over all
``n`` members with a nonzero net is ``n - k``, where ``k`` is the largest number of
disjoint zero-sum groups they split into. Up to :data:`EXACT_LIMIT` members that ``k`` is
found exactly by a dynamic programme over the subsets (2^15 subsets, about 0.1 s); beyond,
exact opposites are paired first and the rest settled largest debt to largest credit, which
is never worse than ``n - 1`` transfers.

Constraints and carried debts (:func:`settle_up`): members who settle only among themselves
(``/night end settle_with:``, for example a couple) form a group whose nets must cancel; no
transfer crosses a group's edge, so the fewest transfers are the fewest of each part (the
groups, and everyone else), each exact up to :data:`EXACT_LIMIT` members with a net. A debt
still open from an earlier settle-up and carried into this one (``carry_open:``) is folded
into the two members' nets first, and the fewest transfers are recomputed over all of it.

Money uses :class:`decimal.Decimal` throughout, never floats. A transfer whose chips are
not a whole number of the currency's smallest unit (1 cent for EUR, 1 yen for JPY) is
rounded half up to it, and the transfer says so (:attr:`Payment.note`): never hidden.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from bot.engine.errors import InvalidConfig

EXACT_LIMIT = 15
"""Members with a nonzero net up to which the answer is the exact minimum."""

CURRENCIES: Mapping[str, tuple[str, int]] = {
    # ISO 4217 code: (symbol, digits after the point in the smallest unit)
    "EUR": ("€", 2),
    "USD": ("$", 2),
    "GBP": ("£", 2),
    "CHF": ("CHF ", 2),
    "CAD": ("CA$", 2),
    "AUD": ("A$", 2),
    "NZD": ("NZ$", 2),
    "SEK": ("kr ", 2),
    "NOK": ("kr ", 2),
    "DKK": ("kr ", 2),
    "PLN": ("zł ", 2),
    "CZK": ("Kč ", 2),
    "HUF": ("Ft ", 2),
    "INR": ("₹", 2),
    "BRL": ("R$", 2),
    "MXN": ("MX$", 2),
    "ZAR": ("R ", 2),
    "CNY": ("¥", 2),
    "HKD": ("HK$", 2),
    "SGD": ("S$", 2),
    "ILS": ("₪", 2),
    "TRY": ("₺", 2),
    "JPY": ("¥", 0),
    "KRW": ("₩", 0),
    "ISK": ("kr ", 0),
    "KWD": ("KD ", 3),
    "BHD": ("BD ", 3),
}
"""The currencies a league may settle in. The smallest unit decides what "exact" means."""

MAX_CHIP_VALUE_PLACES = 6
_DECIMAL = re.compile(r"\d{1,9}(\.\d{1,6})?")  # 6: MAX_CHIP_VALUE_PLACES


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int
    """The member who owes (negative net): pays ``chips`` worth of money to the payee."""
    payee: int
    chips: int


@dataclass(frozen=True, slots=True)
class ChipValue:
    """What one chip is worth: ``per_chip`` units of ``currency`` (e.g. 0.01 EUR)."""

    per_chip: Decimal
    currency: str

    @property
    def digits(self) -> int:
        return CURRENCIES[self.currency][1]

    @property
    def unit(self) -> Decimal:
        return Decimal(1).scaleb(-self.digits)

    def exact(self, chips: int) -> Decimal:
        return self.per_chip * chips

    def rounded(self, chips: int) -> Decimal:
        return self.exact(chips).quantize(self.unit, rounding=ROUND_HALF_UP)

    def format(self, amount: Decimal) -> str:
        """``€1.23`` style, with the code when the symbol is shared (``kr 12.00 SEK``)."""
        symbol = CURRENCIES[self.currency][0]
        text = f"{amount:,.{self.digits}f}"
        shared = sum(1 for s, _ in CURRENCIES.values() if s == symbol) > 1
        return f"{symbol}{text}" + (f" {self.currency}" if shared else "")

    def describe(self) -> str:
        """``100 chips = €1.00`` when a round number of chips makes one unit or more."""
        hundred = self.exact(100)
        return f"1 chip = {self.per_chip.normalize():f} {self.currency} (100 chips = " + (
            f"{self.format(hundred)})"
            if hundred == hundred.quantize(self.unit)
            else f"{hundred.normalize():f} {self.currency})"
        )


def parse_chip_value(value: str, currency: str) -> ChipValue:
    """A chip value as typed in ``/league setup`` (``0.01``, ``0.005``, ``1``) and an ISO
    currency code. Bad input raises :class:`InvalidConfig` naming the option."""
    code = currency.strip().upper()
    if code not in CURRENCIES:
        known = ", ".join(sorted(CURRENCIES))
        raise InvalidConfig("currency", f"{currency!r} is not one of {known}")
    text = value.strip().replace(",", ".")
    if not _DECIMAL.fullmatch(text):
        raise InvalidConfig(
            "chip_value",
            f"{value!r} is not an amount like 0.01 (what one chip is worth, at most "
            f"{MAX_CHIP_VALUE_PLACES} digits after the point)",
        )
    try:
        per_chip = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern only lets numbers through
        raise InvalidConfig("chip_value", f"{value!r} is not a number") from None
    if per_chip <= 0:
        raise InvalidConfig("chip_value", "one chip must be worth more than 0")
    return ChipValue(per_chip=per_chip.normalize(), currency=code)


@dataclass(frozen=True, slots=True)
class Payment:
    """A transfer with its money: ``amount`` is what changes hands (rounded to the
    currency's smallest unit); ``exact`` what the chips are worth."""

    transfer: Transfer
    amount: Decimal
    exact: Decimal
    value: ChipValue

    @property
    def is_exact(self) -> bool:
        return self.amount == self.exact

    @property
    def note(self) -> str | None:
        """Said plainly when the chips do not divide into the currency's smallest unit."""
        if self.is_exact:
            return None
        chips = self.transfer.chips
        return (
            f"{chips:,} chips cannot be paid exactly in {self.value.currency}: they are worth "
            f"{self.exact.normalize():f}, rounded to {self.value.format(self.amount)}"
        )


def payments(transfers: Sequence[Transfer], value: ChipValue) -> list[Payment]:
    return [
        Payment(transfer=t, amount=value.rounded(t.chips), exact=value.exact(t.chips), value=value)
        for t in transfers
    ]


def check_nets(nets: Mapping[int, int]) -> dict[int, int]:
    """The nonzero nets; raises ``ValueError`` unless they are whole chips summing to 0."""
    for member, net in nets.items():
        if type(net) is not int:
            raise ValueError(f"net of {member} is not a whole number of chips: {net!r}")
    total = sum(nets.values())
    if total != 0:
        raise ValueError(f"nets must sum to 0 to be settled, not {total}")
    return {m: n for m, n in nets.items() if n != 0}


def fewest_transfers(nets: Mapping[int, int]) -> list[Transfer]:
    """Transfers that bring every net to 0: the fewest possible for up to
    :data:`EXACT_LIMIT` members with a nonzero net, a good heuristic beyond. Ordered by
    payer, then payee (deterministic).

    >>> fewest_transfers({1: -30, 2: 10, 3: 20})
    [Transfer(payer=1, payee=2, chips=10), Transfer(payer=1, payee=3, chips=20)]
    >>> fewest_transfers({1: -5, 2: 5, 3: -7, 4: 7})
    [Transfer(payer=1, payee=2, chips=5), Transfer(payer=3, payee=4, chips=7)]
    """
    live = check_nets(nets)
    members = sorted(live)
    if len(members) <= EXACT_LIMIT:
        groups = _zero_sum_groups([live[m] for m in members])
        parts = [[members[i] for i in g] for g in groups]
    else:
        parts = _paired_opposites(live)
    out: list[Transfer] = []
    for part in parts:
        out += _settle_group({m: live[m] for m in part})
    return sorted(out, key=lambda t: (t.payer, t.payee))


def _zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """Indexes of ``values`` split into the largest number of disjoint groups each summing
    to 0 (``values`` sums to 0). ``best[mask]``: the most zero-sum groups the members in
    ``mask`` can be cut into along one order of removal; a mask summing to 0 closes one
    more group."""
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * (full + 1)
    bits = [1 << i for i in range(n)]
    for mask in range(1, full + 1):
        top = 0
        for bit in bits:
            if mask & bit:
                b = best[mask ^ bit]
                if b > top:
                    top = b
        best[mask] = top + (1 if total[mask] == 0 else 0)
    # walk back from the full set: each zero-sum mask met on the way closes a group
    groups: list[list[int]] = []
    mask, closed = full, full
    while mask:
        gain = 1 if total[mask] == 0 else 0
        if gain and mask != closed:
            groups.append([i for i in range(n) if (closed ^ mask) >> i & 1])
            closed = mask
        step = next(bit for bit in bits if mask & bit and best[mask ^ bit] + gain == best[mask])
        mask ^= step
    groups.append([i for i in range(n) if closed >> i & 1])
    return [g for g in groups if g]


def _paired_opposites(live: Mapping[int, int]) -> list[list[int]]:
    """Beyond the exact limit: each pair of exact opposites (-x, +x) is a group of its own
    (one transfer), the rest one group."""
    debtors: dict[int, list[int]] = {}
    for m in sorted(live):
        if live[m] < 0:
            debtors.setdefault(-live[m], []).append(m)
    parts: list[list[int]] = []
    rest: list[int] = []
    for m in sorted(live):
        if live[m] > 0 and debtors.get(live[m]):
            parts.append([debtors[live[m]].pop(0), m])
        elif live[m] > 0:
            rest.append(m)
    rest += [m for same in debtors.values() for m in same]
    if rest:
        parts.append(sorted(rest))
    return parts


def _settle_group(nets: Mapping[int, int]) -> list[Transfer]:
    """A zero-sum group in at most ``len - 1`` transfers: the largest debt pays the largest
    credit (ties by member id); each transfer zeroes at least one of the two."""
    owe = {m: -n for m, n in nets.items() if n < 0}
    owed = {m: n for m, n in nets.items() if n > 0}
    out: list[Transfer] = []
    while owe and owed:
        payer = min(owe, key=lambda m: (-owe[m], m))
        payee = min(owed, key=lambda m: (-owed[m], m))
        chips = min(owe[payer], owed[payee])
        out.append(Transfer(payer=payer, payee=payee, chips=chips))
        for side, member in ((owe, payer), (owed, payee)):
            side[member] -= chips
            if side[member] == 0:
                del side[member]
    assert not owe and not owed, "a group's nets must sum to 0"
    return out


class SettleConstraintError(ValueError):
    """A ``settle_with`` group that cannot settle among itself (its nets do not cancel), or
    groups that overlap. ``members`` is the group, ``total`` what its nets add up to."""

    def __init__(self, members: frozenset[int], total: int, why: str) -> None:
        super().__init__(why)
        self.members = members
        self.total = total


def with_carried(nets: Mapping[int, int], carried: Sequence[Transfer]) -> dict[int, int]:
    """``nets`` with each carried debt folded in: its payer owes ``chips`` more, its payee
    is owed them.

    >>> with_carried({1: 5, 2: -5}, [Transfer(payer=3, payee=1, chips=4)])
    {1: 9, 2: -5, 3: -4}
    """
    out = dict(nets)
    for t in carried:
        out[t.payer] = out.get(t.payer, 0) - t.chips
        out[t.payee] = out.get(t.payee, 0) + t.chips
    return out


def parts_of(nets: Mapping[int, int], groups: Sequence[frozenset[int]]) -> list[dict[int, int]]:
    """The members' nets cut into the parts that settle apart: each group, then everyone
    else. Raises :class:`SettleConstraintError` when groups overlap or a group's nets do
    not cancel."""
    seen: set[int] = set()
    parts: list[dict[int, int]] = []
    for group in groups:
        if seen & group:
            raise SettleConstraintError(
                group, 0, f"members {sorted(seen & group)} are in two settle_with groups"
            )
        seen |= group
        part = {m: nets.get(m, 0) for m in sorted(group)}
        total = sum(part.values())
        if total != 0:
            raise SettleConstraintError(
                group, total, f"the nets of {sorted(group)} add up to {total}, not 0"
            )
        parts.append(part)
    parts.append({m: n for m, n in nets.items() if m not in seen})
    return parts


def settle_up(
    nets: Mapping[int, int],
    *,
    groups: Sequence[frozenset[int]] = (),
    carried: Sequence[Transfer] = (),
) -> list[Transfer]:
    """The fewest transfers that settle ``nets`` plus the ``carried`` debts, no transfer
    crossing a ``groups`` edge (see the module's docstring); ordered by payer, then payee.

    >>> settle_up({1: -10, 2: 5, 3: 5, 4: -5, 5: 5}, groups=[frozenset({1, 2, 3})])
    [Transfer(payer=1, payee=2, chips=5), Transfer(payer=1, payee=3, chips=5), \
Transfer(payer=4, payee=5, chips=5)]
    >>> settle_up({1: -10, 2: 5, 3: 5}, carried=[Transfer(payer=2, payee=1, chips=5)])
    [Transfer(payer=1, payee=3, chips=5)]
    """
    combined = with_carried(nets, carried)
    check_nets(combined)
    out: list[Transfer] = []
    for part in parts_of(combined, groups):
        out += fewest_transfers(part)
    return sorted(out, key=lambda t: (t.payer, t.payee))


def is_exact(nets: Mapping[int, int], groups: Sequence[frozenset[int]] = ()) -> bool:
    """Whether :func:`settle_up` gives the proven minimum: every part has at most
    :data:`EXACT_LIMIT` members with a net."""
    return all(sum(1 for n in part.values() if n) <= EXACT_LIMIT for part in parts_of(nets, groups))
