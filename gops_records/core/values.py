"""The values a record's tags may hold, one rule for every notation.

What validates must import: a date or a number a record carries is stored (a DuckDB
``DATE``, a ``SMALLINT``) and shown (Python's ``datetime.date``), so each reader refuses,
as a ``tag-value`` problem, what the store or a page could not hold. The rules live here
once and every reader calls them: the ``.gops`` replay's tags (and through it the round
logs' ``date`` column), the ``.gin`` and ``.ginsheet`` readers.

- A date is ``YYYY.MM.DD`` with ASCII digits, ``??`` for an unknown part, a real day of
  a real month where the parts are known, and a year from :data:`FIRST_YEAR` to
  :data:`LAST_YEAR`: a four-digit year that does not start with 0. Year 0 does not exist
  (1 BC is followed by AD 1), and every year kept is one Python and DuckDB both represent.
- A number (a Gin ``Game`` or ``Hand`` tag) is ASCII digits from 1 to :data:`MAX_NUMBER`,
  well inside the 16-bit column it is stored in.
- A tag's value holds at most :data:`MAX_TAG_CHARS` characters, in every notation.
"""

from __future__ import annotations

import calendar
import re

from gops_records.core.text import shorten

#: The first and last years a record's date may carry.
FIRST_YEAR, LAST_YEAR = 1000, 9999
#: The largest game or hand number a Gin record may carry (stored as a SMALLINT).
MAX_NUMBER = 9999
#: The most characters a tag's value may hold. PGN allows 255 in a string; a club's Event
#: or Site rarely needs more than that. A value is kept beside its game and copied into
#: per-player tables (an Event into each of the game's players' bid groups), so a value of
#: megabytes would cost memory and storage out of all proportion to the record.
MAX_TAG_CHARS = 1000
_DATE = re.compile(r"([0-9]{4}|\?{4})\.([0-9]{2}|\?\?)\.([0-9]{2}|\?\?)")


def date_problem(text: str) -> str | None:
    """Why a Date tag's value is not a date a record may carry (None when it is one;
    surrounding spaces and ``??`` parts allowed)."""
    value = text.strip()
    m = _DATE.fullmatch(value)
    if not m:
        return f"Date {shorten(text)!r} is not YYYY.MM.DD (write ?? for unknown parts)"
    year, month, day = (None if "?" in g else int(g) for g in m.groups())
    if year is not None and not FIRST_YEAR <= year <= LAST_YEAR:
        return (f"Date {text!r} has the year {m.group(1)}: a date's year is from "
                f"{FIRST_YEAR} to {LAST_YEAR} (write ???? for an unknown year)")
    if month is not None and not 1 <= month <= 12:
        return f"Date {text!r} has no month {month:02d} (months are 01 to 12)"
    if day is not None:
        longest = 31 if month is None else calendar.monthrange(year or 2000, month)[1]
        if not 1 <= day <= longest:
            where = (calendar.month_name[month] + (f" {year}" if year else "")
                     if month else "any month")
            return f"Date {text!r} is not a date: {where} has {longest} days"
    return None


def length_problem(name: str, value: str) -> str | None:
    """Why a tag's value is too long to keep (None when it is not)."""
    if len(value) <= MAX_TAG_CHARS:
        return None
    return (f"the value of {name} is {len(value):,} characters long: a tag's value holds at "
            f"most {MAX_TAG_CHARS:,}")


def tag_problem(name: str, value: str) -> str | None:
    """Why a tag's value is not one a record may carry, by the rules every notation shares
    (its length; a Date's date rule): None when it is one."""
    if (problem := length_problem(name, value)) is not None:
        return problem
    return date_problem(value) if name == "Date" else None


def number_of(text: str | None, low: int = 1, high: int = MAX_NUMBER) -> int | None:
    """A tag's value as a number from ``low`` to ``high`` (ASCII digits only), else None."""
    if text is None or not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)):
        return None
    number = int(digits)
    return number if low <= number <= high else None


def number_problem(name: str, text: str, low: int = 1, high: int = MAX_NUMBER) -> str | None:
    """Why a tag's value is not a number from ``low`` to ``high`` (None when it is one)."""
    if number_of(text, low, high) is not None:
        return None
    return f'[{name} "{shorten(text)}"]: write a number from {low} to {high}'
