"""Readable text for answers and cards: what the CLI prints without ``--json``.

Every function takes protocol JSON (or a Card) and returns text, so what a
person reads is exactly what a program would get.  The one exception is
:func:`describe_card`, the JSON object of a card that the ``card`` query answers
and :func:`card_text` renders, kept beside its text form.
"""

from __future__ import annotations

import json
from typing import Any

from manasolver.models.abilities import ManaAbility, Production
from manasolver.models.card import Card
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, mask_letters

__all__ = ["answer_text", "card_text", "describe_card", "production_texts", "slot_text"]


def slot_text(mask: int) -> str:
    """One mana slot: ``{G}``, ``{any color}``, ``{any type}`` or ``{R|G}``."""
    if mask == ANY_COLOR:
        return "{any color}"
    if mask == ANY_TYPE:
        return "{any type}"
    letters = mask_letters(mask)
    return "{" + "|".join(letters) + "}" if len(letters) > 1 else "{" + letters + "}"


def production_texts(prod: Production) -> list[str]:
    """Each option an activation may produce, as text."""
    if prod.reference:
        what = "color" if prod.colors_only else "type"
        whose = {"lands_you_control": "a land you control",
                 "lands_opponents_control": "a land an opponent controls",
                 "sacrificed_land": "the sacrificed land"}.get(prod.reference, prod.reference)
        texts = [f"{prod.reference_count} mana of any {what} that {whose} could produce"]
    else:
        texts = ["".join(slot_text(m) for m in option) for option in prod.options]
    if prod.amount is not None:
        a = prod.amount
        detail = a.kind
        if a.kind == "count":
            what = "/".join(sorted(a.subtypes | a.types | a.supertypes)) or "permanent"
            detail = f"each {what} {'you control' if a.controller == 'you' else a.controller}"
        elif a.kind == "counters":
            detail = f"each {a.counter} counter on it"
        elif a.kind == "devotion":
            detail = "devotion to that color"
        times = f"{a.times} × " if a.times != 1 else ""
        texts = [f"{t} × ({times}{detail})" for t in texts]
    return texts


def _ability_json(ab: ManaAbility) -> dict[str, Any]:
    from manasolver.models.text.describe import ability_notes, extra_production_texts
    produces = [t for t in production_texts(ab.production) if t] + extra_production_texts(ab.production)
    out: dict[str, Any] = {
        "index": ab.index,
        "cost": ab.cost.parts(),
        "produces": produces,
    }
    notes = ability_notes(ab)
    if notes:
        out["notes"] = notes
    if ab.damage:
        out["damage_to_you"] = ab.damage
    if ab.production.restriction is not None:
        out["restriction"] = ab.production.restriction.text
    if ab.intrinsic:
        out["intrinsic"] = True
    if ab.text:
        out["text"] = ab.text
    return out


def describe_card(card: Card) -> dict[str, Any]:
    """A card as the engine understands it: mana value, colors and mana abilities."""
    out: dict[str, Any] = {
        "name": card.name,
        "mana_cost": card.mana_cost.format() if card.mana_cost is not None else None,
        "mana_value": card.mana_value,
        "colors": card.color_letters,
        "type_line": card.type_line.text,
        "mana_abilities": [_ability_json(a) for a in card.mana_abilities],
    }
    from manasolver.models.text.keyword_costs import keyword_costs
    from manasolver.models.text.read import card_text
    text = card_text(card)
    alternatives = {k: v.format() for k, v in card.alternative_costs}
    alternatives.update({k.name: k.cost.format() for k in keyword_costs(card) if k.kind == "alternative"})
    if alternatives:
        out["alternative_costs"] = alternatives
    additional = {k.name: k.cost.format() for k in keyword_costs(card) if k.kind == "additional"}
    if additional:
        out["additional_costs"] = additional
    activated = [{"index": a.index, "text": a.text, "zone": a.zone,
                  "costs": (a.cost.parts() if a.cost else []) + list(a.extra),
                  **({"keyword": a.keyword} if a.keyword else {}),
                  **({"sorcery_speed": True} if a.sorcery_speed else {}),
                  **({"unsupported_cost": a.unread} if a.cost is None else {})}
                 for a in text.activated]
    if activated:
        out["activated_abilities"] = activated
    triggers = [t.to_json() for t in text.triggers]
    if triggers:
        out["triggers"] = triggers
    if card.keywords:
        out["keywords"] = sorted(card.keywords)
    if card.unsupported:
        out["unsupported"] = list(card.unsupported)
    return out


def card_text(info: dict[str, Any]) -> str:
    """Readable form of :func:`describe_card`."""
    lines = [
        f"{info['name']}   {info['mana_cost'] or '(no mana cost)'}",
        f"  {info['type_line']}",
        f"  mana value {info['mana_value']}; colors: {', '.join(info['colors']) or 'colorless'}",
    ]
    if info.get("alternative_costs"):
        lines.append("  alternative costs: " + ", ".join(f"{k} {v}" for k, v in info["alternative_costs"].items()))
    abilities = info["mana_abilities"]
    if abilities:
        lines.append("  mana abilities:")
        for ab in abilities:
            cost = ", ".join(ab["cost"]) or "(no cost)"
            note = " (intrinsic, CR 305.6)" if ab.get("intrinsic") else ""
            lines.append(f"    [{ab['index']}] {cost}: add " + " or ".join(ab["produces"]) + note)
            if ab.get("damage_to_you"):
                lines.append(f"        deals {ab['damage_to_you']} damage to you")
            if ab.get("restriction"):
                lines.append(f"        restriction: {ab['restriction']}")
            for note in ab.get("notes", []):
                lines.append(f"        {note}")
    else:
        lines.append("  no mana abilities")
    if info.get("additional_costs"):
        lines.append("  additional costs: " + ", ".join(f"{k} {v}" for k, v in info["additional_costs"].items()))
    if info.get("activated_abilities"):
        lines.append("  other activated abilities (spell.ability):")
        for ab in info["activated_abilities"]:
            where = "" if ab["zone"] == "battlefield" else f" (from the {ab['zone']})"
            speed = " (only as a sorcery)" if ab.get("sorcery_speed") else ""
            lines.append(f"    [{ab['index']}] {ab['text']}{where}{speed}")
    for trig in info.get("triggers", []):
        note = "" if trig.get("effects") and not trig.get("unsupported") else " (not read)"
        if trig.get("mana_ability") is False:
            note += " (uses the stack: not a mana ability, CR 605.5a)"
        lines.append(f"  trigger: {trig['text']}{note}")
    for clause in info.get("unsupported", []):
        lines.append(f"  unsupported: {clause}")
    return "\n".join(lines)


def _payment_lines(p: dict[str, Any]) -> list[str]:
    lines = [f"  total: {p.get('total') or '{0}'}" + (f"   X = {p['x']}" if p.get("x") else "")]
    for c in p.get("choices", []):
        lines.append(f"    {c['symbol']} paid as {c['paid_as']}")
    acts = p.get("activations", [])
    if acts:
        lines.append("  activate:")
        width = max(len(str(a["permanent"])) for a in acts)
        for a in acts:
            times = f" ×{a['times']}" if a.get("times", 1) != 1 else ""
            lines.append(f"    {str(a['permanent']).ljust(width)}  ability {a['ability']}  "
                         f"{', '.join(a['costs'])}{times}  → {a['mana']}")
    for key in ("convoked", "delved", "improvised"):
        if p.get(key):
            lines.append(f"  {key}: {', '.join(p[key])}")
    extras = [f"{k} {p[k]}" for k in ("pool_used", "life", "energy", "damage", "floating") if p.get(k)]
    if extras:
        lines.append("  " + "; ".join(extras))
    if p.get("warnings"):
        lines.append("  warnings: " + ", ".join(p["warnings"]))
    return lines


def answer_text(result: dict[str, Any]) -> str:
    """Readable form of any protocol answer."""
    if "error" in result:
        e = result["error"]
        where = f" (at {e['where']})" if e.get("where") else ""
        return f"error [{e['code']}]{where}: {e['message']}"
    lines: list[str] = []
    if "activating" in result:
        act = result["activating"]
        source = act.get("permanent") or f"{act.get('card')} (in the {act.get('zone')})"
        lines.append(f"activating {source}: {act['text']}")
    if "payable" in result:
        lines.append("payable" if result["payable"] else "not payable")
        if result.get("time_bound"):
            lines.append("  (the optimiser hit its time bound: a legal payment, optimality not proven)")
        if "payment" in result:
            lines.extend(_payment_lines(result["payment"]))
        if "reason" in result:
            r = result["reason"]
            lines.append(f"  reason [{r['code']}]: {r['message']}")
            if r.get("missing"):
                lines.append(f"  missing: {r['missing']}")
        return "\n".join(lines)
    if "max_x" in result:
        if result["max_x"] is None:
            r = result.get("reason", {})
            return f"no legal X: {r.get('message', '')}"
        lines.append(f"max X = {result['max_x']}")
        if "payment" in result:
            lines.extend(_payment_lines(result["payment"]))
        return "\n".join(lines)
    if "payments" in result:
        pays = result["payments"]
        lines.append(f"{len(pays)} payment{'s' if len(pays) != 1 else ''}"
                     f"{'' if result.get('complete') else ' (not complete: the limit was reached)'}")
        for i, p in enumerate(pays, 1):
            lines.append(f"#{i}")
            lines.extend(_payment_lines(p))
        return "\n".join(lines)
    if "legal" in result:
        lines.append("legal" if result["legal"] else "not legal")
        lines.extend(f"  - {problem}" for problem in result.get("problems", []))
        return "\n".join(lines)
    if "could_produce" in result:
        for pid, types in result["could_produce"].items():
            lines.append(f"  {pid}: {''.join('{' + t + '}' for t in types) or 'nothing'}")
        return "could produce:\n" + "\n".join(lines) if lines else "no permanent with a mana ability"
    if "options" in result:
        lines.append(f"{len(result['options'])} options"
                     f"{'' if result.get('complete') else ' (not complete)'}")
        lines.extend(f"  {o if isinstance(o, str) else json.dumps(o)}" for o in result["options"])
        return "\n".join(lines)
    if "mana_value" in result:
        return f"mana value {result['mana_value']}; colors: {', '.join(result['colors']) or 'colorless'}"
    if "domain" in result:
        devotion = ", ".join(f"{c} {n}" for c, n in result["devotion"].items() if n) or "none"
        return "\n".join([
            f"colors among permanents: {', '.join(result['colors_among_permanents']) or 'none'}",
            f"card types ({len(result['card_types'])}): {', '.join(result['card_types']) or 'none'}",
            f"devotion: {devotion}",
            f"domain: {result['domain']}",
        ])
    return json.dumps(result, indent=2, ensure_ascii=False)
