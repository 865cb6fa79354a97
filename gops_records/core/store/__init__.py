"""The DuckDB store: schema and migrations, connections, the bulk loader, files read."""
