"""Settings of the reward service process (``codereward serve`` and ``codereward worker``).

One pydantic-settings class, read once at start-up from ``CODEREWARD_*`` environment
variables and passed down; nothing below reads the environment again.

What it protects: API keys are a ``SecretStr`` (never printed by ``repr`` or logs) and
placeholder or short keys are refused at start-up, so a copy-pasted ``changeme`` never
guards a public port. Time limits are checked to nest: the sandbox's per-test limit sits
inside the task's soft limit and the soft inside the hard limit; the Redis visibility
timeout is a lease that live workers renew (``lease_renew_s``, at least three times per
timeout), so it can be short: a dead worker's task is handed out again in about a
minute, and a long task is never handed out twice. What it does not protect: the keys are shared secrets without expiry or
scopes; put the service behind TLS when it leaves the host.
"""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import SettingsConfigDict

from reward_api.verify.settings import VerifierSettings

PLACEHOLDER_KEYS = frozenset(
    {"changeme", "change-me", "change_me", "secret", "password", "apikey", "api-key", "xxx", "test"}
)
MIN_KEY_CHARS = 16
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


class ServiceSettings(VerifierSettings):
    """Configuration of one gateway or worker process; env prefix ``CODEREWARD_``.

    It extends the verifier's settings (sandbox, workers, runtime root, ...) rather than
    holding them in a nested model, so the variables keep their flat names
    (``CODEREWARD_SANDBOX``, as compose and the chart set them) and the environment is read
    once: the gateway's or worker's ``Verifier`` takes this very object.
    """

    # hide_input_in_errors: a refused key must not reappear in the error message
    model_config = SettingsConfigDict(
        env_prefix="CODEREWARD_", extra="ignore", hide_input_in_errors=True
    )

    broker_url: str | None = Field(
        default=None,
        description="Redis URL of the Celery broker (redis://host:port/db). Unset: the "
        "embedded mode, verification runs in the gateway process.",
    )
    api_keys: SecretStr | None = Field(
        default=None,
        description="Comma-separated API keys; when set every /v1 call (but the "
        "health probe /v1/ping) needs 'Authorization: Bearer <key>'. At least 16 characters each, no placeholders.",
    )
    host: str = Field(default="127.0.0.1", description="Address `serve` binds.")
    port: int = Field(default=8000, ge=0, le=65535, description="Port `serve` binds.")
    max_body_bytes: int = Field(
        default=32 * 1024 * 1024,
        ge=1024,
        description="Largest request body accepted; larger gets 413.",
    )
    max_batch: int = Field(
        default=1024,
        ge=1,
        description="Most items in one /v1/rewards request, per key; more gets 429.",
    )
    rate_limit_per_min: int = Field(
        default=6000,
        ge=1,
        description="Requests per minute per API key (or client address); 429 after.",
    )
    cache_ttl_s: int = Field(
        default=24 * 3600,
        ge=1,
        description="Lifetime of a cached result (Redis TTL; LRU entry age).",
    )
    cache_size: int = Field(
        default=100_000,
        ge=0,
        description="Entries in the embedded in-memory LRU result cache; 0 disables.",
    )
    task_soft_time_limit_s: float = Field(
        default=300.0,
        gt=0,
        description="Celery soft limit of one task; its items become sandbox_error.",
    )
    task_time_limit_s: float = Field(
        default=330.0,
        gt=0,
        description="Celery hard limit of one task: the worker child is killed.",
    )
    visibility_timeout_s: float = Field(
        default=60.0,
        gt=0,
        description="Redis visibility timeout: a task whose worker stopped renewing its "
        "lease (the worker died) is handed to another worker after this long.",
    )
    lease_renew_s: float = Field(
        default=5.0,
        gt=0,
        description="How often a worker renews the lease of the tasks it holds; at most a "
        "third of visibility_timeout_s.",
    )
    restore_interval_s: int = Field(
        default=10,
        ge=1,
        description="How often workers look for unacknowledged tasks whose visibility "
        "timeout passed (a dead worker's), to hand them out again.",
    )
    task_max_retries: int = Field(
        default=3, ge=0, description="Retries of a task whose items met an infrastructure failure."
    )
    task_chunk_size: int = Field(
        default=8,
        ge=1,
        description="Samples per Celery task (1 = one task per sample); see the bench.",
    )
    request_timeout_s: float = Field(
        default=900.0, gt=0, description="Longest a wait=true request waits for its results."
    )
    job_ttl_s: int = Field(
        default=3600, ge=1, description="How long a finished wait=false job is kept."
    )
    retry_after_s: int = Field(
        default=2,
        ge=1,
        description="Retry-After seconds sent with 503 while the broker is unreachable.",
    )
    queues: str = Field(
        default="python,c,cpp,java,javascript,typescript,go,rust",
        description="Comma-separated Celery queues `worker` consumes (one per language).",
    )
    worker_concurrency: int = Field(
        default=2,
        ge=1,
        description="Celery worker threads per `worker` process (one Verifier shared).",
    )

    @field_validator("api_keys")
    @classmethod
    def _real_keys(cls, v: SecretStr | None) -> SecretStr | None:
        if v is None:
            return None
        keys = [k.strip() for k in v.get_secret_value().split(",") if k.strip()]
        if not keys:
            return None
        for key in keys:
            if key.lower() in PLACEHOLDER_KEYS or len(key) < MIN_KEY_CHARS:
                # The key itself is never echoed: the message names only the rule.
                raise ValueError(
                    f"CODEREWARD_API_KEYS holds a placeholder or a key shorter than "
                    f"{MIN_KEY_CHARS} characters; generate one with "
                    "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
                )
        return SecretStr(",".join(keys))

    @model_validator(mode="after")
    def _limits_nest(self) -> ServiceSettings:
        if not self.task_soft_time_limit_s < self.task_time_limit_s:
            raise ValueError("time limits must nest: task_soft_time_limit_s < task_time_limit_s")
        if self.lease_renew_s * 3 > self.visibility_timeout_s:
            raise ValueError("lease_renew_s must be at most a third of visibility_timeout_s")
        return self

    def key_list(self) -> list[str]:
        """The configured API keys (empty when auth is off)."""
        if self.api_keys is None:
            return []
        return self.api_keys.get_secret_value().split(",")

    @property
    def embedded(self) -> bool:
        """True when no broker is configured: verification runs in the gateway process."""
        return not self.broker_url

    def check_bind(self) -> None:
        """Refuse to serve a non-loopback address without API keys."""
        if self.host not in LOOPBACK_HOSTS and not self.key_list():
            raise ValueError(
                f"refusing to bind {self.host}: a non-loopback address needs CODEREWARD_API_KEYS"
            )
