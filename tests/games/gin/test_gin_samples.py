"""The bundled Gin Rummy samples are what make_gin_samples builds, and read as intended."""

from __future__ import annotations

from gops_records.pipelines import make_gin_samples


def test_bundled_gin_samples_are_what_the_pipeline_builds_and_check():
    files = make_gin_samples.build()
    folder = make_gin_samples.SAMPLES
    for name, text in files.items():
        assert (folder / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m gops_records.pipelines.make_gin_samples")
    assert make_gin_samples.check(folder) == []
    assert len(files) == 5 and files[make_gin_samples.SHEET_FILE].count("[Game ") == 6
