"""The ``options`` query: every maximal pool of mana the player can have at once, and the
pool doublers that act on it.

``options.py`` is the query (:func:`~manasolver.solver.pools.options.options`); ``ranks.py`` the
polymatroid algebra over pools, ``activations.py`` a supply's classes read as ranks, ``search.py``
the search over activations in every order, ``converters.py`` the dynamic program that answers
boards of one-mana converters (filter lands) without trying orders, ``untapped.py`` the
abilities that don't tap read back into the supply (storage lands, Farrelite Priest, Squandered
Resources), ``context.py`` the
search's blocks and bounds, ``listing.py``
the maximal pools in the answer's order, ``doublers.py`` the pool doublers on a board (CR 106.6 example).
"""
