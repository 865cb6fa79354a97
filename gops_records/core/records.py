"""What a record of every notation shares: its tags as written, with their spans.

A record (a ``.gops`` game, a ``.gin`` hand, a ``.ginsheet`` sheet) starts with tags
``[Name "value"]``. Each notation knows some tag names (:class:`TagNames`): they are read
in any case, kept in canonical case and written first, in the notation's order; other
tags keep their case and follow in file order. A record (:class:`TaggedRecord`) keeps
its tags, where each was written and where its result was, and answers :meth:`tag`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from gops_records.core.problems import Span
from gops_records.core.values import tag_problem

#: Tags as a record holds them: a mapping of name to value, or (name, value) pairs in
#: written order.
Tags = Mapping[str, str] | tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class TagNames:
    """The tags a notation knows, in the order its writer uses."""

    known: tuple[str, ...]
    _canonical: dict[str, str] = field(init=False, repr=False, compare=False)
    _rank: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_canonical", {name.lower(): name for name in self.known})
        object.__setattr__(self, "_rank", {name: i for i, name in enumerate(self.known)})

    def __contains__(self, name: object) -> bool:
        return name in self._rank

    def canonical(self, name: str) -> str:
        """A known tag's name in canonical case (``event`` -> ``Event``); any other name
        as written."""
        return name if name in self._rank else self._canonical.get(name.lower(), name)

    def ordered(self, tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """``tags`` in writing order: the known ones in the notation's order, then the
        others in file order."""
        last = len(self._rank)
        return sorted(tags, key=lambda kv: self._rank.get(kv[0], last))


class TaggedRecord:
    """The base of every notation's record type: ``tags``, ``tag_spans`` (where each tag
    was written, by canonical name) and ``result_span`` (where the terminator was) are
    the record's own fields, compared or not as its notation says; ``TAG_NAMES`` are the
    tags its notation knows."""

    __slots__ = ()
    TAG_NAMES: ClassVar[TagNames]
    tags: Tags
    tag_spans: dict[str, Span]
    result_span: Span | None

    def tag(self, name: str) -> str | None:
        """The value of the tag ``name`` (a known tag in any case), None when the record
        has no such tag."""
        key = self.TAG_NAMES.canonical(name)
        tags = self.tags
        if not isinstance(tags, tuple):  # a mapping
            return tags.get(key)
        for written, value in tags:
            if written == key:
                return value
        return None

    def tag_span(self, name: str) -> Span | None:
        """Where the tag ``name`` (a known tag in any case) was written, None when it was
        not (or the record was not read from text)."""
        return self.tag_spans.get(self.TAG_NAMES.canonical(name))


#: How a reader reports a problem: the message, where, and its code.
Report = Callable[[str, Span, str], None]


class TagReading:
    """The tags of a record being read, in file order, each with its span: a known tag
    is kept in canonical case, a tag given twice is refused (``tag-value``), and every
    value is checked by the rules every notation shares (:func:`core.values.tag_problem`)."""

    __slots__ = ("names", "pairs", "spans")

    def __init__(self, names: TagNames):
        self.names = names
        self.pairs: list[tuple[str, str]] = []
        self.spans: dict[str, Span] = {}

    def add(self, written: str, value: str, span: Span, report: Report) -> None:
        """Keep the tag ``[written "value"]`` read at ``span``; problems go to ``report``."""
        name = self.names.canonical(written)
        if name in self.spans:
            report(f"the tag {name} is given twice", span, "tag-value")
            return
        self.pairs.append((name, value))
        self.spans[name] = span
        if (problem := tag_problem(name, value)) is not None:
            report(problem, span, "tag-value")

    def ordered(self) -> tuple[tuple[str, str], ...]:
        """The tags read, in writing order (:meth:`TagNames.ordered`)."""
        return tuple(self.names.ordered(self.pairs))
