"""The `gops` command line: a thin shell over the library.

Each command lives in its own module and registers itself on :data:`app`.
"""

from gops_records.cli import (  # noqa: F401  (each module registers its commands)
    dashboard_cmd,
    export_cmd,
    games_cmd,
    import_cmd,
    rejects_cmd,
    replay_cmd,
    scout_cmd,
    simulate_cmd,
    upgrade_cmd,
    validate_cmd,
)
from gops_records.cli.app import app


def main() -> None:
    app(prog_name="gops")


__all__ = ["app", "main"]
