"""The DuckDB store: the schema's mechanism and shared tables (each game and feature
declares its own tables through the registry: migrations.py), connections, the bulk
loader, files read."""
