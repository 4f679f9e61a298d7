"""codereward: sandboxed code-verification rewards for RL post-training of code models.

The public surface, what users and the trainer import (``from reward_api import Verifier``):

- verification: ``Verifier``, ``VerifierSettings``, ``Job``, ``verify_once``
- the contract's formats: ``Problem``, ``Sample``, ``Result``, ``TestResult``, ``Verdict``,
  ``RewardSettings``, ``StdioTest``, ``CallTest``, ``AssertTest``, ``Limits``
- the HTTP client: ``RewardClient``, ``AsyncRewardClient``, ``RewardClientError``,
  ``trl_reward_func``
- evaluation: ``pass_at_k``
- errors: ``CodeRewardError``, ``InputError``, ``InfrastructureError``, ``SandboxError``,
  ``SandboxUnavailable``

Names resolve on first use (PEP 562), so ``import reward_api`` stays as cheap as the
schemas: a CLI start or a worker pays only for what it touches. Everything else in the
package is internal and may move; a test keeps this list importable.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "Verifier": "reward_api.verify.pipeline",
    "VerifierSettings": "reward_api.verify.pipeline",
    "Job": "reward_api.verify.pipeline",
    "verify_once": "reward_api.verify.pipeline",
    "Problem": "reward_api.schemas",
    "Sample": "reward_api.schemas",
    "Result": "reward_api.schemas",
    "TestResult": "reward_api.schemas",
    "Verdict": "reward_api.schemas",
    "RewardSettings": "reward_api.schemas",
    "StdioTest": "reward_api.schemas",
    "CallTest": "reward_api.schemas",
    "AssertTest": "reward_api.schemas",
    "Limits": "reward_api.schemas",
    "RewardClient": "reward_api.client",
    "AsyncRewardClient": "reward_api.client",
    "RewardClientError": "reward_api.client",
    "trl_reward_func": "reward_api.client",
    "pass_at_k": "reward_api.data.passk",
    "CodeRewardError": "reward_api.errors",
    "InputError": "reward_api.errors",
    "InfrastructureError": "reward_api.errors",
    "SandboxError": "reward_api.errors",
    "SandboxUnavailable": "reward_api.errors",
}

__all__ = [
    "AssertTest",
    "AsyncRewardClient",
    "CallTest",
    "CodeRewardError",
    "InfrastructureError",
    "InputError",
    "Job",
    "Limits",
    "Problem",
    "Result",
    "RewardClient",
    "RewardClientError",
    "RewardSettings",
    "Sample",
    "SandboxError",
    "SandboxUnavailable",
    "StdioTest",
    "TestResult",
    "Verdict",
    "Verifier",
    "VerifierSettings",
    "__version__",
    "pass_at_k",
    "trl_reward_func",
    "verify_once",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'reward_api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:
    from reward_api.client import (
        AsyncRewardClient,
        RewardClient,
        RewardClientError,
        trl_reward_func,
    )
    from reward_api.data.passk import pass_at_k
    from reward_api.errors import (
        CodeRewardError,
        InfrastructureError,
        InputError,
        SandboxError,
        SandboxUnavailable,
    )
    from reward_api.schemas import (
        AssertTest,
        CallTest,
        Limits,
        Problem,
        Result,
        RewardSettings,
        Sample,
        StdioTest,
        TestResult,
        Verdict,
    )
    from reward_api.verify.pipeline import Job, Verifier, VerifierSettings, verify_once
