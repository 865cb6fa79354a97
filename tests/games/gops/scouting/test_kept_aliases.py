"""A kept scouting report is never read or kept for a name an alias touches: `gops alias`
changes a player's games without an import, which the kept report's stamp follows."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "core"))
from names_fixture import names_db  # noqa: E402

from gops_records.core.store.aliases import add_alias, remove_alias  # noqa: E402
from gops_records.core.store.db import connect, reading  # noqa: E402
from gops_records.games.gops.scouting import kept_store  # noqa: E402


def test_names_an_alias_touches_are_not_kept(tmp_path: Path) -> None:
    db = names_db(tmp_path)
    with reading(db) as con:
        assert not kept_store._aliased(con, "Marta")
    con = connect(db)
    add_alias(con, "Márta", "Marta")
    con.close()
    with reading(db) as con:
        assert kept_store._aliased(con, "Marta") and kept_store._aliased(con, "Márta")
        assert not kept_store._aliased(con, "Joost")
    con = connect(db)
    remove_alias(con, "Márta")
    con.close()
    with reading(db) as con:
        assert not kept_store._aliased(con, "Marta")
