"""Typed exceptions every layer and every game shares; no game is named here.

:class:`GopsError` is the base of every error gops_records raises. :class:`ProblemError`
is the base of every problem a record can have (a game's rule and notation errors:
``games/<game>/errors.py`` derive theirs from it): it carries a stable ``code`` (the same
string the validator reports), so callers can branch on it without parsing messages.
"""

from __future__ import annotations


class GopsError(Exception):
    """Base class of every error raised by gops_records."""

    code = "error"


class ProblemError(GopsError, ValueError):
    """A problem of a record, any game's: a stable ``code``, a ``message`` saying what to
    fix and, when there is one, the ``card`` it is about (a replay locates it)."""

    code = "problem"

    def __init__(self, message: str, *, card: int | None = None):
        super().__init__(message)
        self.message = message
        self.card = card


class DecodeError(ProblemError):
    """A file whose bytes are not text in the expected encoding."""

    code = "encoding"
