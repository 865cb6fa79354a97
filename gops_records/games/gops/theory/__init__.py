"""Equilibrium analysis of two-player classic Gops: exact values of positions.

Pure library, no I/O in the core: :mod:`position` (the typed state and its checks),
:mod:`matrix_game` (one revealed prize as a zero-sum matrix game), :mod:`solver`
(backward induction with a memo), :mod:`reductions` (the transformations that leave a
value unchanged). Around it: :mod:`tablebase` (solved values kept on disk and in the
process), :mod:`bid_cost` (what a bid gives away, whichever equilibrium), :mod:`review`
(a recorded game against the equilibrium), :mod:`review_store` and :mod:`stored_review`
(reviews of stored games kept for the pages). docs/theory.md gives the definitions and
why each reduction holds.
"""
