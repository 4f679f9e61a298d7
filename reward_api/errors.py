"""Errors of the reward service. Outcomes of programs are verdicts, never exceptions.

CodeRewardError
├── InputError            bad input from a user (CLI: clear message, HTTP: 422)
│   ├── ProblemNotFound   a sample names a problem id nobody registered
│   └── RewardSettingsError  bad --reward preset or settings file (reward_api.verify.scoring)
├── ProblemFault          a problem that only running it shows to be broken (its checker does
│                         not compile, or fails on the test's own answer): that sample is
│                         ``sandbox_error`` with the reason, never retried, never a reward
└── InfrastructureError   our own fault; retried, then reported as ``sandbox_error``
    ├── StaticAnalysisError  semgrep-core failed (reward_api.verify.static_analysis)
    ├── SandboxError      a cell died, hung or answered nonsense
    │   └── SandboxBusy   no cell was free before the caller's deadline (load, not a fault)
    └── SandboxUnavailable the backend cannot start at all (missing runtime, no engine)
"""

from __future__ import annotations


class CodeRewardError(Exception):
    """Root of the tree."""


class InputError(CodeRewardError, ValueError):
    """The caller's input is malformed; the message names the place and the field."""


class ProblemNotFound(InputError):
    """A sample refers to an unknown problem id."""


class ProblemFault(CodeRewardError):
    """The problem is broken, not the program nor the sandbox (reward_api.verify.checkers)."""


class InfrastructureError(CodeRewardError):
    """The service failed, not the program."""


class SandboxError(InfrastructureError):
    """A cell failed (died, hung, protocol error)."""


class SandboxBusy(SandboxError):
    """Every cell stayed busy until the lease's deadline: the pool is loaded, not broken."""


class SandboxUnavailable(InfrastructureError):
    """The sandbox backend cannot run here (missing runtime, bubblewrap or Docker)."""


class BrokerUnavailable(InfrastructureError):
    """Redis (broker, cache or problem store) cannot be reached; the gateway answers 503."""
