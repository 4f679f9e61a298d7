"""How the verifier runs: ``VerifierSettings``, read once from ``CODEREWARD_*`` variables.

The service's settings (``reward_api.service.settings.ServiceSettings``) extend this class,
so a gateway or worker reads the environment once and hands the same object to its
``Verifier``; the CLI builds one from its flags.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from reward_api.sandbox.policy import SandboxPolicy


def default_runtime_root() -> Path:
    """Where ``make runtime`` puts the sandbox root (sandbox_images/runtime/rootfs-path.sh)."""
    if os.geteuid() == 0 or os.access("/var/lib/codereward", os.W_OK):
        return Path("/var/lib/codereward/runtime/bookworm-py311")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "codereward/runtime/bookworm-py311"


class VerifierSettings(BaseSettings):
    """How the verifier runs; read from ``CODEREWARD_*`` environment variables."""

    model_config = SettingsConfigDict(env_prefix="CODEREWARD_", extra="ignore")

    sandbox: Literal["process", "docker"] = Field("process", description="Sandbox backend.")
    workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1, le=512,
                         description="Cells run in parallel (default: all cores).")  # fmt: skip
    runtime_root: Path = Field(default_factory=default_runtime_root,
                               description="Sandbox runtime root filesystem (process backend).")  # fmt: skip
    recycle_after: int = Field(256, ge=1, description="Replace a cell after this many samples.")
    max_output_bytes: int = Field(16 << 20, ge=1024, description="Stdout cap per test.")
    docker_image: str = Field("codereward/sandbox-python:3.11", description="Docker sandbox image.")
    docker_runtime: str | None = Field(None, description="OCI runtime for docker, e.g. runsc.")

    compile_time_s: float = Field(
        60.0, gt=0, le=600, description="Wall seconds a compile may take (compiled languages)."
    )
    artifact_cache_mb: int = Field(
        256, ge=0, description="Compiled programs kept on the host by content hash, MiB."
    )
    lift_asserts: bool = Field(
        True,
        description="Run a C++ or Go assert test's comparisons in a build apart from the "
        "program, fed the values its calls returned, where the test's shape allows "
        "(reward_api.verify.lifted, lifted_go); off: beside the program, in its process.",
    )
    precompiled_headers: bool = Field(
        True,
        description="Compile a C++ program against a precompiled header of its own first "
        "includes, built once per header in a checker cell (reward_api.verify.headers; the "
        "process backend: the docker backend's cells mount nothing of the host's).",
    )
    language_roots: dict[str, Path] = Field(
        default_factory=dict,
        description="Runtime root per compiled language (process backend), e.g. "
        '{"cpp": "/srv/gcc12"}; a language not named uses sandbox_images/runtime/root-path.sh\'s '
        "folder (CODEREWARD_RUNTIME_ROOT_<ROOT> wins there).",
    )
    language_images: dict[str, str] = Field(
        default_factory=dict,
        description="Docker image per compiled language, e.g. "
        '{"cpp": "codereward-dev/sandbox-cpp:12"}; default: the sandbox_images metadata names.',
    )

    def language_policy(self, base: SandboxPolicy, language: str) -> SandboxPolicy:
        """The policy of a compiled language's cells: its own root and image, else ``base``."""
        from reward_api.verify import languages

        root = self.language_roots.get(language) or languages.default_root(language)
        image = self.language_images.get(language) or languages.IMAGES[language]
        # compilers and runtimes are threaded (javac, rustc, go, node): a process budget
        # that still stops a fork bomb, but not a JVM
        procs = max(base.max_procs, languages.MAX_PROCS)
        return replace(base, runtime_root=Path(root), docker_image=image, max_procs=procs,
                       cell_pids_max=max(base.cell_pids_max, procs + 64))  # fmt: skip

    def policy(self) -> SandboxPolicy:
        """The sandbox policy these settings describe (defaults for everything else)."""
        return SandboxPolicy(
            runtime_root=self.runtime_root,
            recycle_after_samples=self.recycle_after,
            max_output_bytes=self.max_output_bytes,
            docker_image=self.docker_image,
            docker_runtime=self.docker_runtime,
        )
