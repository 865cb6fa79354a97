"""gops-records: notation, rules engine, validation, storage and analytics for Gops games."""

__version__ = "0.1.0"
