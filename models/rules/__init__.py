"""Board semantics as functions of a game state: amounts that depend on the board (CR 107.1b), land
types after the effects that change them (``land_types``, layer 4), the effects on mana in force and
the abilities they grant (``board_effects``, layer 6), mana production under replacement effects and
triggered mana abilities (``production``, CR 106.12, 614, 616), counts (CR 105.2, 700.5) and the
events that change a board (CR 603)."""
