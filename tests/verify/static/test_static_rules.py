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


FAMILIES = {"cpp": ("c", "cpp"), "java": ("java",), "js": ("js", "ts"), "go": ("go",),
            "rust": ("rs",)}  # fmt: skip
"""Each language family's rule-file suffix and the extensions of its fixtures."""
LANGUAGES = {"c": "c", "cpp": "cpp", "java": "java", "js": "javascript", "ts": "typescript",
             "go": "go", "rs": "rust"}  # fmt: skip


def _fixtures(rule_file: Path) -> list[Path]:
    return sorted(p for p in RULES_DIR.glob(f"{rule_file.stem}.*") if p.suffix != ".yaml")


def test_each_category_has_a_python_rule_file_and_a_fixture():
    for category in CATEGORIES:
        path = RULES_DIR / f"{category}.yaml"
        assert path in rule_files([category])
        assert path.with_suffix(".py").is_file()


def test_hacking_and_security_rules_cover_every_compiled_language_with_a_fixture_each():
    for category in ("reward_hacking", "security"):
        for family, exts in FAMILIES.items():
            path = RULES_DIR / f"{category}-{family}.yaml"
            assert path in rule_files([category])
            assert [p.suffix[1:] for p in _fixtures(path)] == sorted(exts)


def test_every_rule_of_a_file_is_for_the_languages_of_its_fixtures():
    import yaml

    for path in rule_files():
        fixtures = _fixtures(path)
        langs = {LANGUAGES.get(p.suffix[1:], "python") for p in fixtures}
        for rule in yaml.safe_load(path.read_text())["rules"]:
            assert set(rule["languages"]) <= langs, (path.name, rule["id"])


def test_every_rule_declares_one_of_the_three_categories():
    rules = load_rules()
    assert {r["metadata"]["category"] for r in rules} == set(CATEGORIES)


def test_every_rule_is_exercised_by_a_ruleid_annotation():
    annotated: set[str] = set()
    for path in rule_files():
        for fixture in _fixtures(path):
            for ids in re.findall(r"(?:#|//)\s*ruleid:\s*([\w\-, ]+)", fixture.read_text()):
                annotated.update(i.strip() for i in ids.split(","))
    missing = {r["id"] for r in load_rules()} - annotated
    assert not missing


def test_rule_ids_are_unique_across_files():
    ids = [r["id"] for r in load_rules()]
    assert len(ids) == len(set(ids))
