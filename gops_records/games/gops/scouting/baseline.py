"""The scouting report's equilibrium baseline as a value (computed in
:mod:`gops_records.games.gops.scouting.equilibrium`); light, so a kept report reads fast."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EquilibriumBaseline:
    """What the equilibrium guarantees and what a best response to the model adds, mean
    points per endgame (A = the scout), over ``endgames`` endgames."""

    endgames: int
    cards_left: int
    equilibrium: float
    best_response: float
    exploitability: float
    low: float | None
    high: float | None
    start_value: float = 0.0

    def as_json(self) -> dict:
        return {"endgames": self.endgames, "cards_left": self.cards_left,
                "equilibrium_value": self.equilibrium, "best_response_value":
                self.best_response, "exploitability": self.exploitability,
                "exploitability_ci": [self.low, self.high], "start_value": self.start_value}

    def text_lines(self) -> list[str]:
        ci = f" (95% CI {self.low:+.2f} to {self.high:+.2f})" if self.low is not None else ""
        return [
            f"Against the equilibrium (the last {self.cards_left} rounds of {self.endgames} "
            "recent games, solved exactly; points per endgame):",
            f"  the equilibrium guarantees {self.equilibrium:+.2f} whatever the player does "
            f"(from the start of a game: {self.start_value:+.1f}, the honest baseline",
            "  beside the counter-strategy);",
            f"  a best response to the model earns {self.best_response:+.2f}: "
            f"exploitability {self.exploitability:+.2f}{ci}",
        ]
