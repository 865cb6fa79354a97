"""The one frame of the sample pipelines: build a game's sample files, write or compare
them, then check what is in the folder (``make_samples`` for Gops, ``make_gin_samples``
for Gin Rummy are this over their own :class:`SampleSet`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gops_records.core.samples import bundled_folder

#: The bundled samples: package data, gops_records/samples/ of the repository.
SAMPLES = bundled_folder()


@dataclass(frozen=True, slots=True)
class SampleSet:
    """One game's bundled samples: how to build them, check them and say what they are."""

    build: Callable[[], dict[str, str]]    # file name -> text, deterministic
    check: Callable[[Path], list[str]]     # what is wrong with the files in a folder
    summary: Callable[[Path], str]         # "<folder>: 5 evenings, ..."
    suffixes: tuple[str, ...]              # a file of these in the folder is one of its own


def stale(folder: Path, files: dict[str, str], suffixes: tuple[str, ...]) -> list[str]:
    """What in ``folder`` differs from ``files`` (or is missing), or has one of
    ``suffixes`` without being made by the build: one line each."""
    lines = [f"{folder / name}: differs from a fresh build" for name, text in files.items()
             if not (folder / name).exists()
             or (folder / name).read_text(encoding="utf-8") != text]
    extra = sorted({p.name for p in folder.iterdir() if p.is_file()
                    and p.name.lower().endswith(suffixes)} - set(files)) \
        if folder.is_dir() else []
    return lines + [f"{folder / name}: not made by this script" for name in extra]


def main(samples: SampleSet, description: str, argv: list[str] | None = None) -> int:
    """Write the samples into ``--out`` (gops_records/samples/ by default), or with ``--check``
    compare the folder with a fresh build and write nothing; then check the folder.
    Exit status 1 when anything is stale or wrong."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=SAMPLES, help="folder to write")
    parser.add_argument("--check", action="store_true",
                        help="only compare the folder with a fresh build; write nothing")
    args = parser.parse_args(argv)
    files = samples.build()
    if args.check:
        differ = stale(args.out, files, samples.suffixes)
        for line in differ:
            print(line, file=sys.stderr)
        if differ:
            return 1
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (args.out / name).write_text(text, encoding="utf-8", newline="\n")
    problems = samples.check(args.out)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(samples.summary(args.out)
          + ("" if not problems else f"; {len(problems)} problems"))
    return 1 if problems else 0
