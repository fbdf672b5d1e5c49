"""Attachments the bot uploads, made from bytes in memory.

:class:`discord.File` stubs its file object's ``close`` while a request may retry, and
puts the real one back when it is closed: that bound method, kept in the file object's
own ``__dict__``, refers back to the file object. Each upload then leaves a reference
cycle behind (the file object and, until the cycle collector finds it, its bytes: a hand
picture, a chart), and a table uploads one per hand DM edit. :func:`upload` makes a file
whose ``close`` takes that method away again, so the bytes are freed as soon as the
upload is done.
"""

from __future__ import annotations

import contextlib
import io

import discord


class _Upload(discord.File):
    __slots__ = ()

    def close(self) -> None:
        super().close()
        with contextlib.suppress(AttributeError):
            del self.fp.close  # the bound method discord.py restored: it refers to fp


def upload(data: bytes, filename: str, *, description: str | None = None) -> discord.File:
    """A file of ``data`` to attach to a message (``description``: its alt text)."""
    return _Upload(io.BytesIO(data), filename=filename, description=description)
