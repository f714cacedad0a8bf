"""The oracle-text readers: one module per clause family, each turning real rules text into the frozen
values of :mod:`manasolver.models` (mana abilities, their costs and restrictions, effects on mana,
triggers, activated abilities, hand abilities, tapping costs, cost modifiers, keyword costs,
prohibitions) and ``describe``, the words for what was read.  ``read`` gives a card built its reading
(:func:`manasolver.models.text.read.read_card_text`), each reader run when what it reads is first
asked; the card keeps the result."""
