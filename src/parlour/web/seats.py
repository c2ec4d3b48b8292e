"""Who may sit where: a seat's invite, the claim of the browser that took it, the creator's secret.

A human seat is taken with its **invite** (the token of the link ``/t/<id>#token=...``). The
first join with it **claims** the seat: that browser gets a secret of its own, and from then
on the seat is joined with that secret (any number of its tabs); the invite alone is refused
(``seat_claimed``). The table's **creator** holds a third secret, which re-issues a seat's
invite (a new invite, no claim) and closes the table. The server keeps only the SHA-256 of
each secret and compares them in constant time. docs/web.md "Seats and their claims".

>>> seats = [Seat(0, HUMAN, "Ann", token_hash=token_hash("inv")), Seat(1, AGENT, "random", "random")]
>>> admit(seats, "inv", None)          # the first join with the invite claims seat 0
(0, True)
>>> seats[0].claim_hash = token_hash("mine")
>>> admit(seats, "inv", "mine"), admit(seats, None, "mine"), admit(seats, None, None)
((0, False), (0, False), (None, False))
>>> admit(seats, "inv", None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
parlour.web.protocol.WebError: seat_claimed: seat 0 (Ann) is held by another browser: ...
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from parlour.web import protocol
from parlour.web.protocol import WebError

HUMAN, AGENT = "human", "agent"


def token_hash(token: str) -> str:
    """How a secret (an invite, a claim, the creator's) is stored: its SHA-256, in hex.

    >>> token_hash("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode()).hexdigest()


def new_secret() -> str:
    """A fresh secret: 32 characters of ``[A-Za-z0-9_-]`` (192 random bits)."""
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    """One seat: a human (its invite's hash, and its claim's once a browser took it) or an agent."""

    seat: int
    kind: str
    name: str
    spec: str | None = None
    token_hash: str | None = None  # the current invite's
    agent: Any = None  # as it plays here: capped to the limits
    claim_hash: str | None = None  # the claiming browser's secret's; None: unclaimed

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "spec": self.spec}

    @property
    def label(self) -> str:
        """How server messages name the seat: ``seat 0 (Ann)``."""
        return f"seat {self.seat} ({self.name})"


def find(seats: list[Seat], secret: str, attr: str) -> int | None:
    """The seat whose ``attr`` (``token_hash`` or ``claim_hash``) is this secret's hash, or None.
    Every seat is compared, in constant time, so the time taken tells nothing."""
    digest = token_hash(secret)
    found = None
    for seat in seats:
        stored = getattr(seat, attr)
        if stored is not None and hmac.compare_digest(stored, digest):
            found = seat.seat
    return found


def admit(seats: list[Seat], token: str | None, secret: str | None) -> tuple[int | None, bool]:
    """The seat a join with the invite ``token`` and/or the claim ``secret`` takes (None: a
    spectator), and whether the join claims it (the seat is unclaimed: a secret is to be made).
    Raises ``bad_token`` for an invite or secret that is no seat's, ``seat_claimed`` for an
    invite whose seat another browser holds."""
    if token is None:
        if secret is None:
            return None, False
        seat = find(seats, secret, "claim_hash")
        if seat is None:
            raise WebError(protocol.BAD_TOKEN, "this seat secret is not (or no longer) a seat's of this table: the "
                           "table's creator may have re-issued the seat's invite; open the new invite link, or join "
                           "with a null token to watch")
        return seat, False
    seat = find(seats, token, "token_hash")
    if seat is None:
        raise WebError(protocol.BAD_TOKEN, "this token is not a seat token of this table: use the current invite link "
                       "of your seat (each table has its own, and its creator may have re-issued it), or join with a "
                       "null token to watch")
    held = seats[seat].claim_hash
    if held is None:
        return seat, True
    if secret is not None and hmac.compare_digest(held, token_hash(secret)):
        return seat, False
    raise WebError(protocol.SEAT_CLAIMED, f"{seats[seat].label} is held by another browser: an invite link seats the "
                   "first browser that opens it, and only that browser may rejoin. If it was yours, open the link in "
                   "that browser; otherwise ask the table's creator to re-issue the invite (that ends the old claim)",
                   seat=seat)


def bearer(header: str | None) -> str | None:
    """The secret of an ``Authorization: Bearer <secret>`` header, or None.

    >>> bearer("Bearer abc"), bearer("bearer  abc "), bearer("Basic abc"), bearer(None)
    ('abc', 'abc', None, None)
    """
    scheme, _, value = (header or "").strip().partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def check_admin(admin_hash: str | None, given: str | None, what: str) -> None:
    """Refuse (403 ``forbidden``) unless ``given`` is the creator's secret. A table made before
    creators had secrets (``admin_hash`` None) refuses everyone."""
    good = admin_hash is not None and given is not None and hmac.compare_digest(admin_hash, token_hash(given))
    if not good:
        raise WebError(protocol.FORBIDDEN, f"only the table's creator may {what}: send the header "
                       "\"Authorization: Bearer <admin>\" with the \"admin\" secret of the answer that made the table "
                       "(the lobby keeps it in the browser that made the table)", 403)
