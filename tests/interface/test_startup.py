"""Light queries stay light: no optimiser library is imported to answer them.

A fresh interpreter answers a plain ``can_pay``, ``could_produce`` and ``mana_value`` on the
bundled commander example through :func:`manasolver.solver.service.protocol.answer`, then reports
which heavy libraries it has imported.  ``ortools`` (CP-SAT, about 0.3 s to import with numpy
and pandas), ``networkx`` and ``constraint`` (python-constraint2) load only inside the backends
that need them, so none of them may be in ``sys.modules`` afterwards.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

HEAVY = ("ortools", "networkx", "constraint")

_CHILD = textwrap.dedent("""
    import json, sys
    from manasolver.solver.service.demo import example_state
    from manasolver.solver.service.protocol import answer

    state = example_state("commander")
    answers = {
        "can_pay": answer({"query": "can_pay", "state": state, "cost": "{2}{W}"}),
        "could_produce": answer({"query": "could_produce", "state": state}),
        "mana_value": answer({"query": "mana_value", "cost": "{2/W}{2/U}{2/B}{2/R}{2/G}"}),
    }
    loaded = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))
    print(json.dumps({"answers": answers, "loaded": loaded}))
""")


def _light_queries_in_a_fresh_process(tmp_path: object) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", _CHILD, *HEAVY], capture_output=True, text=True,
                          timeout=120, check=False, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert isinstance(out, dict)
    return out


def test_light_queries_import_no_optimiser(tmp_path: object) -> None:
    """can_pay (the fast paths answer it), could_produce (CR 106.7, the source graph) and
    mana_value (CR 202.3) import none of ortools, networkx, constraint."""
    out = _light_queries_in_a_fresh_process(tmp_path)
    answers = out["answers"]
    assert isinstance(answers, dict)
    assert answers["can_pay"] == {"payable": True}, answers["can_pay"]
    assert "error" not in answers["could_produce"] and answers["could_produce"]["could_produce"], \
        answers["could_produce"]
    assert answers["mana_value"]["mana_value"] == 10, answers["mana_value"]
    assert out["loaded"] == [], f"heavy modules imported by light queries: {out['loaded']}"
