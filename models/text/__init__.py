"""The oracle-text readers: one module per clause family, each turning real rules text into the frozen
values of :mod:`manasolver.models` (mana abilities, their costs and restrictions, effects on mana,
triggers, activated abilities, hand abilities, cost modifiers, keyword costs) and ``describe``, the
words for what was read."""
