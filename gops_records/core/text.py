"""Record text as every notation of every game reads numbers and echoes words.

Numbers are read from runs of ASCII digits with a cap (:func:`capped`), so a number of
thousands of digits is a big number, not a slow conversion or a crash; text is echoed
in messages shortened (:func:`shorten`); a seat is named the same way in every game's
problems (:func:`seat_label`).
"""

from __future__ import annotations

#: Numbers are kept up to this value; a longer one can only fail a check (and is shown
#: shortened), so no conversion of thousands of digits ever happens.
NUMBER_CAP = 999_999


def capped(digits: str) -> int:
    """A run of ASCII digits as a number, capped at :data:`NUMBER_CAP`."""
    digits = digits.lstrip("0") or "0"
    return NUMBER_CAP + 1 if len(digits) > 6 else int(digits)


def shorten(text: str, limit: int = 40) -> str:
    """Text as echoed in a message: at most ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def seat_label(letter: str, name: str | None) -> str:
    """A seat as problem messages name it, in every notation: ``Carla (A)``, or the letter
    alone when the record names nobody there (or names the seat by its letter)."""
    name = (name or "").strip()
    return f"{shorten(name, 30)} ({letter})" if name and name != letter else letter
