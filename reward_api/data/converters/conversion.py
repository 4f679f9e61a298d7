"""What a converter returns: problems, reference samples and a report of what was kept.

A converter never drops a record silently: every record that does not become a problem,
and every test that could not be built, is counted in the ``ConversionReport`` with a
reason, so a user can see how faithful the converted set is to its source.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from reward_api.schemas import Problem, Sample


@dataclass
class ConversionReport:
    """Counters and skipped records of one conversion; ``to_dict()`` is its JSON form."""

    format: str
    source: str
    records: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def skip(self, record_id: str, reason: str) -> None:
        """Record that ``record_id`` did not become a problem, and why."""
        self.skipped.append({"id": record_id, "reason": reason})
        self.counts[f"skipped:{reason.split(':', 1)[0]}"] += 1

    def count(self, key: str, n: int = 1) -> None:
        """Add ``n`` to the counter ``key`` (tests dropped, notes, ...)."""
        self.counts[key] += n

    def to_dict(self, problems: list[Problem], samples: list[Sample]) -> dict[str, Any]:
        """The JSON report: totals, counters and the skipped records."""
        return {
            "format": self.format,
            "source": self.source,
            "records": self.records,
            "problems": len(problems),
            "samples": len(samples),
            "tests": sum(len(p.tests) for p in problems),
            "with_reference": sum(1 for p in problems if p.reference),
            "counts": dict(sorted(self.counts.items())),
            "skipped": self.skipped,
        }


@dataclass
class Conversion:
    """Problems and samples built by one converter, and its report."""

    problems: list[Problem] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    report: ConversionReport = field(default_factory=lambda: ConversionReport("", ""))

    def add(self, problem: Problem, solutions: list[str] | None = None) -> None:
        """Keep ``problem`` and one ``code`` sample per known-correct solution."""
        self.problems.append(problem)
        for j, code in enumerate(solutions or []):
            sample_id = "reference" if j == 0 else f"solution-{j}"
            self.samples.append(
                Sample(problem_id=problem.id, sample_id=sample_id, code=code, completion=None)
            )
