"""Board semantics as functions of a game state: amounts that depend on the board (CR 107.1b),
mana production under the effects of other permanents (CR 106.12, 614, 616), counts (CR 105.2, 700.5)
and the events that change a board (CR 603)."""
