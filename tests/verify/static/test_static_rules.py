"""The shipped semgrep rules: fixtures pass ``semgrep --test``, metadata is complete."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from reward_api.verify.static_analysis import CATEGORIES, RULES_DIR, load_rules, rule_files

SEMGREP = str(Path(sys.executable).parent / "semgrep")


def test_rule_fixtures_pass_semgrep_test():
    proc = subprocess.run(
        [SEMGREP, "--test", "--metrics=off", "--disable-version-check", str(RULES_DIR)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    assert "All tests passed" in output


def test_each_category_has_a_rule_file_and_a_fixture():
    for category, path in zip(CATEGORIES, rule_files(), strict=True):
        assert path.name == f"{category}.yaml"
        assert path.with_suffix(".py").is_file()


def test_every_rule_declares_one_of_the_three_categories():
    rules = load_rules()
    assert {r["metadata"]["category"] for r in rules} == set(CATEGORIES)


def test_every_rule_is_exercised_by_a_ruleid_annotation():
    annotated: set[str] = set()
    for path in rule_files():
        text = path.with_suffix(".py").read_text()
        for ids in re.findall(r"#\s*ruleid:\s*([\w\-, ]+)", text):
            annotated.update(i.strip() for i in ids.split(","))
    missing = {r["id"] for r in load_rules()} - annotated
    assert not missing


def test_rule_ids_are_unique_across_files():
    ids = [r["id"] for r in load_rules()]
    assert len(ids) == len(set(ids))
