"""`gops dashboard` and `gops demo`: start the Streamlit dashboard (after importing samples)."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.import_cmd import describe_summary
from gops_records.cli.options import DbOption
from gops_records.core.errors import GopsError

DEFAULT_PORT = 8501
DEFAULT_ADDRESS = "127.0.0.1"

PortOption = Annotated[int, typer.Option(
    "--port", min=1, max=65535, metavar="PORT", help="Port the dashboard listens on.")]
AddressOption = Annotated[str, typer.Option(
    "--address", metavar="ADDRESS", help="Address to bind; the default serves this machine only. "
    "Use 0.0.0.0 to share the dashboard on your network.")]


def app_script() -> Path:
    """The dashboard's entry script: ``app.py`` of ``gops_records.dashboards`` (the
    dashboards/ folder of a clone, shipped inside the package by the wheel)."""
    from gops_records import dashboards

    return Path(dashboards.__file__).resolve().parent / "app.py"


def samples_dir() -> Path | None:
    """The bundled sample records' folder (package data; None when it holds none)."""
    from gops_records.core.samples import samples_folder

    return samples_folder()


def streamlit_command(db: Path, port: int, address: str) -> list[str]:
    """The command line that serves the dashboard on the database ``db``."""
    return [sys.executable, "-m", "streamlit", "run", str(app_script()),
            "--server.headless=true", f"--server.address={address}", f"--server.port={port}",
            "--server.fileWatcherType=none", "--browser.gatherUsageStats=false",
            "--client.toolbarMode=minimal",
            "--", "--db", str(db)]


def port_problem(address: str, port: int) -> str | None:
    """Why the dashboard could not listen on ``address``:``port`` (None when it can): the
    port is tried as Streamlit's server binds it (with SO_REUSEADDR)."""
    try:
        family, kind, proto, _, where = socket.getaddrinfo(
            address, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        return f"cannot use the address {address!r}: {exc.strerror}; give --address an IP " \
               "address or host name of this machine"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(where)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"port {port} on {address} is already in use (another dashboard, or "
                        f"another program, is listening there): choose another with --port, "
                        f"e.g. --port {port + 1 if port < 65535 else 8502}")
            return f"cannot listen on {address}:{port}: {exc.strerror or exc}"
    return None


def check_port(address: str, port: int) -> None:
    """Exit 2 with a plain message when the dashboard could not listen there."""
    problem = port_problem(address, port)
    if problem is not None:
        fail(problem)


def serve(db: Path, port: int, address: str) -> None:
    """Run the dashboard in this process's place (so stopping `gops` stops the server)."""
    from gops_records.core.store.db import ENV_VAR

    check_port(address, port)
    db = db.resolve()
    if not db.exists():
        print(f"gops: note: no database at {db} yet; the dashboard will say so until you "
              "import games (gops import PATH, or gops demo)", file=sys.stderr)
    command = streamlit_command(db, port, address)
    env = {**os.environ, ENV_VAR: str(db)}
    print(f"dashboard on http://{address}:{port} (database {db}); Ctrl-C stops it",
          file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    if os.name == "posix":
        os.execve(sys.executable, command, env)
    try:
        code = subprocess.run(command, env=env, check=False).returncode
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code)


@app.command("dashboard")
def dashboard(
    db: DbOption = None,
    port: PortOption = DEFAULT_PORT,
    address: AddressOption = DEFAULT_ADDRESS,
) -> None:
    """Open the dashboard: session results, players' bidding, ties and pools, games, data quality.

    Serves on 127.0.0.1 (this machine only) unless --address says otherwise. The
    dashboard keeps a read-only connection between clicks and lets it go as soon as
    `gops import` asks for the file, so imports can add games while it is open; pages
    show them on the next click.

    Example:

        gops dashboard --db club.duckdb --port 8502
    """
    from gops_records.core.store.db import resolve_db

    serve(resolve_db(db), port, address)


@app.command("demo")
def demo(
    db: DbOption = None,
    port: PortOption = DEFAULT_PORT,
    address: AddressOption = DEFAULT_ADDRESS,
    no_dashboard: Annotated[bool, typer.Option(
        "--no-dashboard", help="Only import the samples; do not start the dashboard.")] = False,
) -> None:
    """Import the bundled sample club evenings, then open the dashboard on them.

    The samples are Gops evenings (.gops) and Gin Rummy evenings (.gin full hands, a
    .ginsheet of score sheets); the dashboard has pages for both games.
    Idempotent: running it again adds no games (they are counted as duplicates).
    The samples include some deliberately broken records, which end up in quarantine
    (see them with gops rejects, or on the dashboard's Data quality page). A port already
    in use is said at once (choose another with --port).

    Example:

    \b
        gops demo
        gops demo --db /tmp/demo.duckdb --no-dashboard
    """
    from gops_records.core.samples import import_samples
    from gops_records.core.store.db import shown_path

    folder = samples_dir()
    if folder is None:
        fail("cannot find the bundled samples (the samples/ folder of the gops_records "
             "package): reinstall gops-records, or import your own records with "
             "gops import PATH")
    if not no_dashboard:
        check_port(address, port)  # before importing: say so at once
    path = shown_path(db)
    try:
        summary = import_samples(folder, path)
        broken = sample_rejects(path, folder)
    except GopsError as exc:
        fail_on(exc)
    typer.echo(describe_summary(summary, path))
    if broken:
        typer.echo(broken)
    if not no_dashboard:
        serve(path, port, address)


def sample_rejects(db: Path, folder: Path) -> str:
    """What the demo says of the samples' rejected records, counted in the database: they
    are broken on purpose, to show the quarantine ('' when there are none)."""
    from gops_records.core.store.db import reading, shown_path

    prefix = str(folder.resolve()).rstrip("/\\") + os.sep
    with reading(db) as con:  # rejects of files read from the samples' folder
        count, files = con.execute(
            "SELECT count(DISTINCT r.reject_id), list(DISTINCT r.source ORDER BY r.source) "
            "FROM rejects r JOIN (SELECT import_id, unnest(sources) AS source, "
            "unnest(source_paths) AS path FROM imports WHERE source_paths IS NOT NULL) i "
            "USING (import_id, source) WHERE starts_with(i.path, ?)", [prefix]).fetchone()
    if not count:
        return ""
    names = ", ".join(Path(f).name for f in files or [])
    what = ("1 rejected record is a deliberately broken sample record" if count == 1 else
            f"{count} rejected records are deliberately broken sample records")
    return (f"The {what} ({names}), there to show what the quarantine keeps: see them with "
            + ("gops rejects" if db == shown_path(None) else f"gops rejects --db {db}")
            + ", or on the dashboard's Data quality page.")
