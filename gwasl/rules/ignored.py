"""The classic ASL rules ASLGW takes out ("Classic ASL - Rules to be ignored",
before ASLGW section 1), as data the app can show and the validator can
enforce.

Each :class:`IgnoredRule` names the classic rules (e.g. A23), the support
weapons (``items``: 'DC') and the engine actions (``actions``: 'place_dc')
that belong to it.  A scenario brings one back by SSR: its ``ssr.allow``
field (docs/format/rules.md) lists rule ids, classic rule numbers or item
names, for every side or per side.

>>> ignored_rule_for_item("DC").asl_rules
('A23',)
>>> [r.id for r in ignored_rules()][:2]
['assault_fire', 'spray_fire']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gwasl.model.batched import FrozenBatch
from gwasl.model.errors import GwaslError
from gwasl.model.scenario import Scenario
from gwasl.model.terrain import TableError, load_resource

# The standard frozen dataclasses, their methods compiled together by one FrozenBatch
# (what a command pays at start-up: issue 23 item 8).
_BATCH = FrozenBatch()
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    dataclass = _BATCH.dataclass

__all__ = [
    "IgnoredRule",
    "IgnoredRuleError",
    "ignored_rules",
    "ignored_rule",
    "ignored_rule_for_item",
    "ignored_rule_for_action",
    "ssr_allowed",
    "require_allowed_action",
    "rule_label",
    "parse_ignored_rules",
]


class IgnoredRuleError(GwaslError):
    """An action of a classic ASL rule ASLGW ignores, with no SSR allowing it."""

    def __init__(self, rule: IgnoredRule, what: str):
        self.rule = rule
        super().__init__(f"{what}: {rule.title} ({', '.join(rule.asl_rules)}) is not used in ASLGW unless an SSR allows it [{rule_label(rule)}]")


@dataclass(frozen=True, slots=True)
class IgnoredRule:
    """One entry of the ASLGW list of classic rules to ignore."""

    id: str
    asl_rules: tuple[str, ...]
    title: str
    items: tuple[str, ...]
    actions: tuple[str, ...]
    reason: str
    ssr_mentioned: bool  # the text itself says an SSR may bring it back


@dataclass(frozen=True, slots=True)
class _Table:
    rules: tuple[IgnoredRule, ...]
    by_key: Mapping[str, IgnoredRule]  # id, classic rule number, item name (normalised)
    by_action: Mapping[str, IgnoredRule]


_BATCH.finish()  # every dataclass above gets its __init__, __repr__, __eq__ and __hash__


_RULE_RE = re.compile(r"^[A-H]\d+(\.\d+)*$")


def _norm(text: str) -> str:
    """Key for names and rule numbers: 'A.23' = 'A23', case and spaces do not matter."""
    t = re.sub(r"\s+", "", text.casefold())
    return re.sub(r"^([a-h])\.(\d)", r"\1\2", t)


def parse_ignored_rules(doc: Any) -> _Table:
    """Validate the decoded ignored-rules table (ASLGW "Classic ASL - Rules to be ignored"); :class:`TableError` names entry and field."""
    rows = doc.get("rules") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not rows:
        raise TableError("ignored_rules.json: no 'rules' list")
    out: list[IgnoredRule] = []
    by_key: dict[str, IgnoredRule] = {}
    by_action: dict[str, IgnoredRule] = {}
    for i, d in enumerate(rows):
        where = f"ignored_rules.json rules[{i}]"
        if not isinstance(d, dict):
            raise TableError(f"{where}: expected an object")
        for k in ("id", "title", "reason"):
            if not isinstance(d.get(k), str) or not d[k]:
                raise TableError(f"{where}.{k}: expected text")
        for k in ("asl_rules", "items", "actions"):
            if not isinstance(d.get(k), list) or not all(isinstance(x, str) and x for x in d[k]):
                raise TableError(f"{where}.{k}: expected a list of names")
        if not d["asl_rules"]:
            raise TableError(f"{where}.asl_rules: names no classic rule")
        for r in d["asl_rules"]:
            if not _RULE_RE.match(r):
                raise TableError(f"{where}.asl_rules: {r!r} is not a classic rule number such as 'A23'")
        if not isinstance(d.get("ssr_mentioned"), bool):
            raise TableError(f"{where}.ssr_mentioned: expected true or false")
        rule = IgnoredRule(d["id"], tuple(d["asl_rules"]), d["title"], tuple(d["items"]), tuple(d["actions"]), d["reason"], d["ssr_mentioned"])
        for key in (rule.id, *rule.asl_rules, *rule.items):
            k = _norm(key)
            if k in by_key and by_key[k] is not rule:
                raise TableError(f"{where}: {key!r} also names {by_key[k].id}")
            by_key[k] = rule
        for a in rule.actions:
            if a in by_action:
                raise TableError(f"{where}.actions: {a!r} also belongs to {by_action[a].id}")
            by_action[a] = rule
        out.append(rule)
    return _Table(tuple(out), MappingProxyType(by_key), MappingProxyType(by_action))


@lru_cache(maxsize=1)
def _table() -> _Table:
    return parse_ignored_rules(load_resource("ignored_rules.json"))


def ignored_rules() -> tuple[IgnoredRule, ...]:
    """The whole ASLGW "rules to be ignored" list, in the text's order (for the app's rules panel)."""
    return _table().rules


def ignored_rule(key: str) -> IgnoredRule | None:
    """The entry of the ASLGW "rules to be ignored" list named by id ('demolition_charges'), classic number
    ('A23', 'A.23') or item ('DC'); ``None`` if it is not on the list."""
    return _table().by_key.get(_norm(key)) if isinstance(key, str) else None


def ignored_rule_for_item(name: str) -> IgnoredRule | None:
    """The ASLGW ignored-list entry a support weapon name belongs to ('DC' -> A23, 'MOL' -> A22.6), else ``None``."""
    r = ignored_rule(name)
    return r if r is not None and _norm(name) in {_norm(i) for i in r.items} else None


def ignored_rule_for_action(action: str) -> IgnoredRule | None:
    """The ignored rule an engine action belongs to ('spray_fire' -> A1.22/A7.34)."""
    return _table().by_action.get(action)


def rule_label(rule: IgnoredRule) -> str:
    """The rule citation of a finding: 'ASLGW ignored A23'."""
    return f"ASLGW ignored {'/'.join(rule.asl_rules)}"


def _allow_list(scenario: Scenario, side: str | None) -> list[str]:
    ssr = scenario.extra.get("ssr")
    allow = ssr.get("allow") if isinstance(ssr, dict) else None
    if isinstance(allow, list):
        return [a for a in allow if isinstance(a, str)]
    if isinstance(allow, dict):
        names = allow.get(side, []) if side is not None else []
        return [a for a in names if isinstance(a, str)] if isinstance(names, list) else []
    return []


def ssr_allowed(scenario: Scenario, side: str | None, rule: IgnoredRule) -> bool:
    """Whether the scenario's SSR brings an ignored classic ``rule`` back for ``side`` (ASLGW ignored list: "could be reintroduced by SSR"): ``ssr.allow``
    names it by id, classic number or one of its items (docs/format/rules.md)."""
    return any(ignored_rule(a) is rule for a in _allow_list(scenario, side))


def require_allowed_action(scenario: Scenario, side: str, action: str) -> None:
    """Raise :class:`IgnoredRuleError` when ``action`` belongs to an ASLGW-ignored
    classic rule and no SSR of ``scenario`` allows it for ``side``."""
    rule = ignored_rule_for_action(action)
    if rule is not None and not ssr_allowed(scenario, side, rule):
        raise IgnoredRuleError(rule, f"action {action!r}")
