"""The vectorised fast path of the importer: plain, valid .gops games read many at once.

It reads each distinct line once (:mod:`.lines`), cuts the text into games and regions
(:mod:`.scan`), checks and replays all plain games together with numpy (:mod:`.games`)
and builds the same frames the exact path builds (:mod:`.build`). Whatever it does not
take goes through the exact path (:mod:`.stream`), so rejects keep exact messages. It
never takes a game the exact path would reject and never changes a value:
``tests/test_fastpath.py`` checks both against each other.
"""

from gops_records.fastpath.stream import (
    CHUNK_BYTES,
    ChunkFrames,
    chunk_bytes_for,
    record_body,
    record_frames,
)

__all__ = ["CHUNK_BYTES", "ChunkFrames", "chunk_bytes_for", "record_body", "record_frames"]
