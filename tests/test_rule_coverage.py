"""Every numbered rule in seeds/ has a test that names it (S31-5 -> S31_5 in a test name)."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE = re.compile(r"\*\*((?:S31|STD|STR)-\d+)\*\*")


def rule_ids():
    ids = []
    for name in sorted(os.listdir(os.path.join(ROOT, "seeds"))):
        if name.endswith(".md"):
            with open(os.path.join(ROOT, "seeds", name), encoding="utf-8") as f:
                ids += RULE.findall(f.read())
    return ids


def test_rule_ids_are_unique():
    ids = rule_ids()
    assert ids and len(ids) == len(set(ids))


def test_every_rule_has_a_test_naming_it():
    text = []
    for folder, _, files in os.walk(os.path.join(ROOT, "tests")):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    text.append(f.read())
    text = "\n".join(text)
    missing = [r for r in rule_ids() if not re.search(r"(?<![A-Za-z0-9])%s(?!\d)" % r.replace("-", "_"), text)]
    assert not missing, "rules without a test naming them: " + ", ".join(missing)
