"""Mana sources that add nothing, or only their own units, on a castability board: The Golden Throne
("{T}, Sacrifice a creature: Add three mana in any combination of colors") with no creature on the board
can't activate its ability, so the board is answered without it; Smokebraider's mana for Elementals pays
no converter of a deck without an Elemental converter.  No engine call, the engine's answers."""

from __future__ import annotations

from manasolver.models.carddb import CardDB
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import G
from manasolver.solver.castability.board import BoardOracle
from manasolver.solver.service.api import can_pay

CARDS = ["The Golden Throne", "Plains", "Island", "Llanowar Elves", "Sol Ring"]
COSTS = ["{W}", "{W}{U}", "{2}{W}", "{W}{W}{W}", "{4}{U}", "{G}"]


def _engine(oracle: BoardOracle, key: tuple[int, ...]) -> int:
    board = oracle._board_json(key)
    return sum(1 << i for i, cost in enumerate(COSTS) if can_pay(board, cost)["payable"])


def _each_board_as_the_engine(oracle: BoardOracle, costs: list[str], codes: list[int], most: int) -> None:
    """Every board of 1 to ``most`` of ``codes`` (one code a card) is answered as the engine answers it,
    with no engine asked."""
    import itertools

    for size in range(1, most + 1):
        for key in itertools.combinations(codes, size):
            if len({c >> 1 for c in key}) < size:
                continue
            board = oracle._board_json(key)
            engine = sum(1 << i for i, c in enumerate(costs) if can_pay(board, c)["payable"])
            assert oracle.castable(key) == engine, key
    assert oracle.engine_calls == 0


def test_golden_throne_without_a_creature_adds_nothing_cr_602_2b(db: CardDB) -> None:
    """Throne, Plains, Island (and Sol Ring, one tapped): the Throne's cost can't be paid, the board is
    the board without it, its answers the engine's, asked of no engine."""
    oracle = BoardOracle([db.get(n) for n in CARDS], [ManaCost.parse(c) for c in COSTS], db)
    for key in ((0, 2, 4), (0, 2, 5), (0, 1, 2, 4, 8), (0, 2, 4, 8)):
        assert oracle._without_idle(key) == tuple(c for c in key if c >> 1 != 0)
        assert oracle.castable(key) == _engine(oracle, key), key
        assert oracle.payable(key, ManaCost.parse("{1}{W}")) == can_pay(oracle._board_json(key), "{1}{W}")["payable"]
    assert oracle.engine_calls == 0


def test_golden_throne_beside_a_creature_stays_on_the_board_cr_602_2b(db: CardDB) -> None:
    """With Llanowar Elves on the board the Throne may sacrifice it for three mana of any colors: the
    board keeps it, and its answers are still the engine's (Elves tapped for {G}, then sacrificed)."""
    oracle = BoardOracle([db.get(n) for n in CARDS], [ManaCost.parse(c) for c in COSTS], db)
    key = (0, 2, 6)
    assert oracle._without_idle(key) is key
    mask = oracle.castable(key)
    assert mask == _engine(oracle, key)
    assert mask >> COSTS.index("{W}{W}{W}") & 1  # three white from the Throne alone


def test_smokebraider_beside_a_signet_adds_nothing_cr_106_6(db: CardDB) -> None:
    """Smokebraider's and Primal Beyond's restricted mana is for Elementals; Dimir Signet is none, and no
    card of these is an Elemental converter: both are static (Smokebraider nothing, Primal Beyond {C}),
    the board answered by its signature as the engine answers it."""
    cards = ["Smokebraider", "Primal Beyond", "Dimir Signet", "Forest", "Island"]
    costs = ["{C}", "{U}{B}", "{2}{B}", "{G}{U}{B}", "{3}{G}", "{R}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    assert oracle._never_fed == {0, 1}
    for key in ((0, 2, 4, 6), (0, 2, 4, 8), (2, 4, 6, 8), (0, 4, 6)):
        assert oracle._signature(key) is not None, key
        board = oracle._board_json(key)
        want = sum(1 << i for i, cost in enumerate(costs) if can_pay(board, cost)["payable"])
        assert oracle.castable(key) == want, key
    assert oracle.engine_calls == 0


def _druid_boards_by_signature(db: CardDB, cards: list[str], costs: list[str],
                               keys: tuple[tuple[int, ...], ...]) -> BoardOracle:
    """The oracle of ``cards`` and ``costs`` (Incubation Druid first, a mirror of every type), each board
    of ``keys`` answered by its signature as the engine answers it, with no engine call."""
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    assert oracle._mirrors == {0: 63}
    for key in keys:
        assert oracle._signature(key) is not None, key
        board = oracle._board_json(key)
        want = sum(1 << i for i, cost in enumerate(costs) if can_pay(board, cost)["payable"])
        assert oracle.castable(key) == want, [(oracle.cards[c >> 1].name, c & 1) for c in key]
    assert oracle.engine_calls == 0
    return oracle


def test_incubation_druid_adds_a_type_its_lands_could_produce_cr_106_7(db: CardDB) -> None:
    """Incubation Druid adds one mana of any type a land you control could produce (tapped or not, a
    filter land's {G}{U} and Temple's {C} included): on boards of Forest, a tapped Island, Overflowing
    Basin and Sol Ring it is one unit of those types, answered by the signature as the engine answers."""
    _druid_boards_by_signature(
        db, ["Incubation Druid", "Forest", "Island", "Overflowing Basin", "Sol Ring", "Plains"],
        ["{U}{U}", "{G}{U}", "{W}", "{C}{C}", "{2}{G}{G}", "{U}{U}{U}", "{G}{G}"],
        ((0, 2, 5), (0, 2), (0, 2, 7), (0, 2, 5, 6), (0, 5, 8), (1, 2, 5), (0, 2, 10), (0, 2, 4, 8)))


def test_incubation_druid_beside_everflowing_chalice_with_its_charge_counter_cr_106_7(db: CardDB) -> None:
    """Everflowing Chalice enters with a charge counter (kicked once); Incubation Druid enters with none, so
    its three mana "instead" never applies: it is still one unit of the types its lands could produce,
    boards of Druid, Chalice, Forest, Island and Plains answered by the signature as the engine answers."""
    oracle = _druid_boards_by_signature(
        db, ["Incubation Druid", "Everflowing Chalice", "Forest", "Island", "Plains"],
        ["{U}{U}", "{G}{U}", "{W}", "{C}{C}", "{2}{G}{G}", "{3}{W}{U}", "{G}{G}", "{4}"],
        ((0, 2, 4), (0, 2, 4, 6), (0, 2, 4, 8), (0, 3, 5, 6), (0, 2, 4, 6, 8), (1, 2, 4, 6, 8), (0, 2, 7, 9)))
    assert oracle._counters[1] and not oracle._counters[0]


def test_incubation_druid_beside_temple_of_the_false_god_cr_106_7(db: CardDB) -> None:
    """Temple of the False God adds {C}{C} only with five lands or more, yet could produce {C} on any board
    (CR 106.7 asks what the ability would add, not whether it could be activated): with Incubation Druid,
    boards of four and of five lands are answered by the signature (the Temple read as the board's lands
    make it) as the engine answers them."""
    oracle = _druid_boards_by_signature(
        db, ["Incubation Druid", "Temple of the False God", "Forest", "Island", "Plains"],
        ["{C}", "{C}{C}", "{G}{U}", "{3}{W}", "{4}{G}", "{5}{U}", "{W}{W}", "{2}{C}"],
        ((0, 2, 4), (0, 2, 4, 6), (0, 2, 4, 6, 8), (0, 2, 4, 4, 6, 8), (0, 2, 4, 6, 6, 8),
         (0, 3, 4, 6, 6, 8), (1, 2, 4, 6, 8, 8), (0, 2, 5, 7, 9, 9)))
    assert oracle._dynamic == {1}


def test_incubation_druid_beside_chromatic_lantern_is_left_to_the_engine_cr_106_7(db: CardDB) -> None:
    """Chromatic Lantern gives each land "{T}: Add one mana of any color": a Forest could then produce
    every color (CR 106.7), which its own types don't say, so the Druid's board is no signature and its
    answers are the engine's ({U}{U}{U} from Lantern, Forest and the Druid)."""
    cards = ["Incubation Druid", "Chromatic Lantern", "Forest"]
    costs = ["{U}{U}{U}", "{G}{G}{G}", "{W}{U}{B}", "{1}{R}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    for key in ((0, 2, 4), (0, 2, 4, 4)):
        assert oracle._signature(key) is None, key
        board = oracle._board_json(key)
        want = sum(1 << i for i, cost in enumerate(costs) if can_pay(board, cost)["payable"])
        assert want & 1  # {U}{U}{U}: the Druid adds {U}
        assert oracle.castable(key) == want, key


def test_forget_boards_keeps_the_engine_answers_and_the_signatures(db: CardDB) -> None:
    """Between games the oracle forgets the boards answered by their signatures (the signature keeps the
    answers: the board asked again is answered with no engine call) and keeps those the engine answered."""
    oracle = BoardOracle([db.get(n) for n in CARDS], [ManaCost.parse(c) for c in COSTS], db)
    plain, engine = (2, 4, 8), (0, 2, 6)
    first = oracle.castable(plain)
    oracle.castable(engine)
    calls = oracle.engine_calls
    assert calls > 0 and plain in oracle._known and engine in oracle._known
    oracle.forget_boards()
    assert plain not in oracle._known and engine in oracle._known
    assert oracle.castable(plain) == first and oracle.engine_calls == calls
    assert oracle.castable(engine) == _engine(oracle, engine)


def test_selvala_explorer_returned_adds_nothing_without_a_library_cr_401_2(db: CardDB) -> None:
    """Selvala, Explorer Returned's parley adds {G} for each nonland card revealed from the top of each
    library (CR 401.2: hidden; a castability board gives none): the engine pays without her where the
    rest pays and refuses where her mana would be needed, so she adds nothing, and still counts as a
    creature for Leafkin Druid ({G}{G} with four creatures). Every board's answers are the engine's,
    a refusal counted as not payable, and no engine is asked."""
    from manasolver.models.errors import ManasolverError

    cards = ["Selvala, Explorer Returned", "Forest", "Leafkin Druid", "Llanowar Elves", "Elvish Mystic", "Plains"]
    costs = ["{G}", "{G}{G}", "{G}{G}{G}", "{2}{G}", "{W}{G}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)

    def engine(key: tuple[int, ...]) -> int:
        board = oracle._board_json(key)
        mask = 0
        for i, cost in enumerate(costs):
            try:
                mask |= (1 << i) if can_pay(board, cost)["payable"] else 0
            except ManasolverError:
                pass
        return mask

    boards = [(0,), (0, 2), (0, 4), (0, 2, 4, 6), (0, 2, 4, 6, 8), (0, 2, 4, 6, 8, 10), (1, 2, 4, 6, 8),
              (0, 2, 4, 6, 9), (0, 4, 6, 8, 10)]
    for key in boards:
        assert oracle.castable(key) == engine(key), key
    assert oracle.engine_calls == 0
    assert oracle.castable((0, 4, 6, 8, 10)) & 0b10  # Leafkin Druid counts her: {G}{G} from the Druid alone


def test_overgrown_battlement_counts_creatures_with_defender_from_the_board(db: CardDB) -> None:
    """Overgrown Battlement ("Add {G} for each creature you control with defender") and Axebane Guardian
    (X mana of any colors, X the same count) are read from the board's cards, their printed keyword
    counted (Llanowar Elves has none): every board's answers are the engine's, with no engine asked.
    Beside Assault Formation ("as though it didn't have defender", no keyword given) they stay read so;
    beside a card that gives defender (Guard Duty: "Enchanted creature has defender") they are left to the engine."""
    from manasolver.solver.castability.board import _keywords_changed

    cards = ["Overgrown Battlement", "Axebane Guardian", "Wall of Omens", "Llanowar Elves", "Forest",
             "Assault Formation"]
    costs = ["{G}", "{G}{G}", "{W}{U}", "{3}{G}", "{G}{G}{G}{G}{G}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    assert {oracle.cards[i].name for i in oracle._dynamic} == {"Overgrown Battlement", "Axebane Guardian"}
    for key in ((0,), (0, 4), (0, 2, 4), (2, 4), (0, 2, 4, 6, 8), (0, 3, 4, 6), (1, 2, 4, 6, 8, 10), (0, 2, 4, 6)):
        board = oracle._board_json(key)
        assert oracle.castable(key) == sum(1 << i for i, c in enumerate(costs) if can_pay(board, c)["payable"]), key
    assert oracle.engine_calls == 0
    battlement = db.get("Overgrown Battlement")
    readers = [battlement, db.get("Assault Formation"), db.get("Wakestone Gargoyle"), db.get("Rolling Stones")]
    assert _keywords_changed(battlement, readers) is False
    assert _keywords_changed(battlement, readers + [db.get("Guard Duty")]) is True


def test_cryptic_trilobite_one_counter_feeds_signets_as_the_engine_reads_it(db: CardDB) -> None:
    """Cryptic Trilobite ("Remove a +1/+1 counter: Add {C}{C}. Spend this mana only to activate
    abilities"), cast with X = 1 (one counter), activates once, as a tap would use it, tapped or not: its
    {C}{C} pays no spell but may pay Signets' {1}. Every board of it, Signets, Commander's Sphere and lands is
    answered as the engine answers it, with no engine asked."""
    cards = ["Cryptic Trilobite", "Azorius Signet", "Izzet Signet", "Commander's Sphere", "Island", "Plains",
             "Mountain"]
    costs = ["{U}", "{2}", "{W}{U}", "{U}{R}", "{2}{U}{U}", "{W}{U}{R}", "{3}{W}{U}", "{4}{R}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    assert oracle._units[0].fed is not None
    # tapped (code 1), it still removes its counter: its ability doesn't tap it
    _each_board_as_the_engine(oracle, costs, [0, 1] + [2 * i for i in range(1, len(cards))], 5)


def test_cactus_preserve_and_reflecting_pool_mirror_the_other_lands_cr_106_7(db: CardDB) -> None:
    """Cactus Preserve and Reflecting Pool add one mana of a type another land you control could
    produce, tapped or not (CR 106.7); mirroring each other they add nothing more, and alone nothing.
    Every board of them, basics, a Signet and Incubation Druid is answered as the engine answers it,
    with no engine asked."""
    cards = ["Cactus Preserve", "Reflecting Pool", "Forest", "Island", "Izzet Signet", "Incubation Druid"]
    costs = ["{G}", "{U}", "{G}{G}", "{G}{U}", "{U}{U}{U}", "{R}", "{3}", "{G}{G}{G}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    assert {oracle.cards[i].name for i in oracle._mirrors} >= {"Cactus Preserve", "Reflecting Pool"}
    # the lands untapped or tapped, the Signet and the Druid untapped
    _each_board_as_the_engine(oracle, costs, [0, 2, 3, 4, 5, 6, 8, 10], 4)


def test_zhur_taa_druid_damage_to_opponents_changes_no_payment_cr_605_4a(db: CardDB) -> None:
    """Zhur-Taa Druid's trigger on tapping for mana deals 1 damage to each opponent: no mana ability
    (CR 605.4a), it changes no payment, so the Druid is a plain {G} on a castability board. Every board
    of it, Llanowar Elves, basics and a Signet is answered as the engine answers it,
    with no engine asked."""
    cards = ["Zhur-Taa Druid", "Llanowar Elves", "Forest", "Mountain", "Gruul Signet"]
    costs = ["{G}", "{G}{G}", "{R}{G}", "{2}{G}{G}", "{R}{R}{G}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    _each_board_as_the_engine(oracle, costs, [2 * i for i in range(len(cards))], 5)


def test_wall_of_roots_adds_g_once_by_a_counter_cr_704_5f(db: CardDB) -> None:
    """Wall of Roots ("Put a -0/-1 counter on this creature: Add {G}. Activate only once each turn"),
    0/5, adds one {G} in a payment without tapping (its toughness stays above 0, CR 704.5f): a plain
    {G} on a castability board. Every board of it, Overgrown Battlement (which counts it: defender),
    Llanowar Elves and basics is answered as the engine answers it, with no engine asked."""
    cards = ["Wall of Roots", "Overgrown Battlement", "Llanowar Elves", "Forest", "Plains"]
    costs = ["{G}", "{G}{G}", "{W}{G}", "{2}{G}{G}", "{G}{G}{G}{G}", "{W}{W}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    assert oracle._units[0].plain == (G,)
    # tapped (code 1), it still adds its {G}: its ability doesn't tap it
    _each_board_as_the_engine(oracle, costs, [0, 1] + [2 * i for i in range(1, len(cards))], 5)
