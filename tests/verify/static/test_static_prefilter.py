"""The gate-only prefilter never hides a reward_hacking finding semgrep would report."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

from reward_api.verify.static_analysis import HACKING, RULES_DIR, may_hack, scan_programs

HACKS = sorted((Path(__file__).parent / "hacks").glob("*.py"))


def _hacking(reports):
    return [{(f.rule_id, f.line) for f in r.findings if f.category == HACKING} for r in reports]


def _fixture_statements() -> list[str]:
    """Each top-level statement of every rule fixture, as a program of its own."""
    snippets = []
    for fixture in sorted(RULES_DIR.glob("*.py")):
        source = fixture.read_text()
        for node in ast.parse(source).body:
            snippets.append(ast.get_source_segment(source, node) or "")
    return snippets


def _annotated_lines() -> list[str]:
    """Each single-line statement that follows a ``# ruleid:`` annotation, alone."""
    lines = []
    for fixture in sorted(RULES_DIR.glob("*.py")):
        text = fixture.read_text().splitlines()
        for annotation, line in itertools.pairwise(text):
            if "# ruleid:" not in annotation:
                continue
            try:
                ast.parse(line.strip())
            except SyntaxError:
                continue
            lines.append(line.strip())
    return lines


def _same_with_and_without_prefilter(programs):
    fast = scan_programs(programs, categories=[HACKING])
    full = scan_programs(programs, categories=[HACKING], prefilter=False)
    return _hacking(fast), _hacking(full)


def test_prefilter_keeps_every_finding_on_fixture_statements():
    fast, full = _same_with_and_without_prefilter(_fixture_statements())
    assert fast == full
    assert sum(bool(f) for f in full) >= 40


def test_prefilter_keeps_every_finding_on_annotated_lines_alone():
    fast, full = _same_with_and_without_prefilter(_annotated_lines())
    assert fast == full
    assert sum(bool(f) for f in full) >= 40


def test_prefilter_keeps_every_finding_on_hack_programs():
    fast, full = _same_with_and_without_prefilter([p.read_text() for p in HACKS])
    assert fast == full


def test_prefilter_skips_an_honest_stdio_program():
    program = "n = int(input())\nvalues = list(map(int, input().split()))\nprint(max(values) * n)\n"
    assert not may_hack(program)


def test_prefilter_keeps_a_program_with_an_exit():
    assert may_hack("def f():\n    return 1\n\n\nraise SystemExit\n")
