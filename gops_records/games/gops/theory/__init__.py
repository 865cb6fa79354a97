"""Equilibrium analysis of two-player classic Gops: exact values of positions.

Pure library, no I/O in the core: :mod:`position` (the typed state and its checks),
:mod:`matrix_game` (one revealed prize as a zero-sum matrix game), :mod:`solver`
(backward induction with a memo), :mod:`reductions` (the transformations that leave a
value unchanged). docs/theory.md gives the definitions and why each reduction holds.
"""
