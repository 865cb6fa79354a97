"""gops-records: notation, rules engine, validation, storage and analytics for Gops games."""

from gops_records.core import address_space as _address_space

__version__ = "0.1.0"

_address_space.apply()  # before numpy, pyarrow and polars are loaded: see address_space.py
