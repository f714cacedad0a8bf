"""The oracle-text readers: one module per clause family, each turning real rules text into the frozen
values of :mod:`manasolver.models` (mana abilities, their costs and restrictions, effects on mana,
triggers, activated abilities, hand abilities, tapping costs, cost modifiers, keyword costs,
prohibitions) and ``describe``, the words for what was read.  ``read`` runs every reader once when a
card is built (:func:`manasolver.models.text.read.read_card_text`); the card keeps the result."""
