"""The `gops` command line: a thin shell over the library.

Each command lives in its own module and registers itself on :data:`app`. Every `gops`
start imports every command module (the top-level help lists them all), so a command
module imports only what its options need (Typer, light Enums and defaults) at the top and
its library inside the command function: a command loads only what it uses
(tests/cli/test_cli_startup.py). A game adds the commands only it has (its part
``commands``, e.g. Gops's `gops solve` and `gops scout`) through the registry.
"""

from gops_records.cli import (  # noqa: F401  (each module registers its commands)
    dashboard_cmd,
    export_cmd,
    games_cmd,
    import_cmd,
    lake_cmd,
    names_cmd,
    ratings_cmd,
    rejects_cmd,
    replay_cmd,
    simulate_cmd,
    upgrade_cmd,
    validate_cmd,
)
from gops_records.cli.app import add_game_commands, app

add_game_commands()


def main() -> None:
    app(prog_name="gops")


__all__ = ["app", "main"]
