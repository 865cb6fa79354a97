"""`python -m gops_records` runs the `gops` command line."""

from gops_records.cli import main

if __name__ == "__main__":
    main()
