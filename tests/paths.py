"""Where the tests find the project's files, wherever a test module sits in tests/."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
DATA = TESTS / "data"
#: The bundled samples (package data of gops_records).
SAMPLES = ROOT / "gops_records" / "samples"
