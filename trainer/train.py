"""The training spine, top to bottom: rollout → reward → buffer → update → sync.

1. A ``Sampler`` thread asks the engine for G completions per prompt with the engine's
   (lagged) weights, hands each batch to a reward pool and goes on generating while it is
   scored: generation and rewards overlap. A scored group enters the buffer tagged with the
   policy version that sampled it; a group with any missing reward (``sandbox_error``) is
   dropped, never scored 0.
2. The learner takes B groups per step and applies the OAPL update (or the GRPO baseline).
3. Every L steps the learner's weights go to the engine (a safetensors reload that works for
   both engines and on GPUs), a few samples are re-scored to prove the engine and learner
   agree, the buffer is cleared, and held-out pass@k is measured.
4. Metrics go to ``metrics.jsonl`` and TensorBoard; checkpoints allow resume.

Every stage is timed under the metric key ``time/<stage>``. With ``data.offline`` set there
is no engine and no sync: offline RL on a fixed dataset.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch

from trainer import checkpoint
from trainer.buffer import Group, RolloutBuffer
from trainer.config import TrainConfig
from trainer.metrics import MetricsWriter
from trainer.oapl import grpo_loss, oapl_loss
from trainer.passk import evaluate
from trainer.policy import response_logprobs, save_weights
from trainer.rewards import RewardRequest, RewardSource, make_reward_source
from trainer.rollout import Completion, RolloutEngine, make_engine
from trainer.problems import read_jsonl

log = logging.getLogger("trainer")


class Sampler:
    """Rollout thread: prompts → engine → reward pool → buffer, until stopped."""

    def __init__(
        self,
        cfg: TrainConfig,
        engine: RolloutEngine,
        rewards: RewardSource,
        buffer: RolloutBuffer,
        problems: list[dict[str, Any]],
        learner_step: list[int],
        seed: int,
    ) -> None:
        self.cfg, self.engine, self.rewards, self.buffer = cfg, engine, rewards, buffer
        self.problems = problems
        self.learner_step = learner_step  # shared one-element list: the learner's step
        self.seed = seed  # differs per rank under torchrun
        self.rng = random.Random(seed)
        self.engine_lock = threading.Lock()  # held while generating, syncing or evaluating
        self.stop = threading.Event()
        self.reward_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="reward-batch")
        self.in_flight = threading.Semaphore(2)  # at most two batches being scored
        self.stats_lock = threading.Lock()
        self.stats: dict[str, float] = {}
        self.thread = threading.Thread(target=self._run, name="sampler", daemon=True)
        self._batch = 0

    def start(self) -> Sampler:
        self.thread.start()
        return self

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Hold the engine (for a sync or an evaluation)."""
        with self.engine_lock:
            yield

    def _add(self, key: str, value: float) -> None:
        with self.stats_lock:
            self.stats[key] = self.stats.get(key, 0.0) + value

    def drain_stats(self) -> dict[str, float]:
        with self.stats_lock:
            out, self.stats = self.stats, {}
        return out

    def _run(self) -> None:
        ro = self.cfg.rollout
        try:
            while not self.stop.is_set():
                if not self.in_flight.acquire(timeout=0.2):
                    continue
                problems = self.rng.sample(
                    self.problems, min(ro.prompts_per_batch, len(self.problems))
                )
                prompts = [
                    self.cfg.data.prompt_template.format(prompt=p["prompt"]) for p in problems
                ]
                with self.engine_lock:
                    version, step = self.buffer.version, self.learner_step[0]
                    t0 = time.perf_counter()
                    groups = self.engine.generate(
                        prompts,
                        ro.group_size,
                        ro.temperature,
                        ro.max_new_tokens,
                        seed=self.seed * 1_000_003 + self._batch,
                    )
                    gen_s = time.perf_counter() - t0
                self._batch += 1
                n_tokens = sum(len(c.token_ids) for g in groups for c in g)
                self._add("time/generate", gen_s)
                self._add("rollout/tokens", n_tokens)
                if self.stop.is_set():
                    break
                future = self.reward_pool.submit(self._score, problems, groups, version, step)
                future.add_done_callback(self._scored)
        except BaseException as exc:  # the thread's boundary: wake the learner with the cause
            self.buffer.close(exc)
            raise

    def _score(
        self,
        problems: list[dict[str, Any]],
        groups: list[list[Completion]],
        version: int,
        step: int,
    ) -> tuple[int, float]:
        try:
            requests = [
                RewardRequest(p, c.text, f"v{version}-s{step}-{p['id']}-{j}")
                for p, g in zip(problems, groups, strict=True)
                for j, c in enumerate(g)
            ]
            t0 = time.perf_counter()
            scored = self.rewards.score(requests)
            latency = time.perf_counter() - t0
            g_size = self.cfg.rollout.group_size
            dropped = 0
            for i, (problem, group) in enumerate(zip(problems, groups, strict=True)):
                part = scored[i * g_size : (i + 1) * g_size]
                if any(s.reward is None for s in part):
                    dropped += 1  # sandbox_error: drop the group, never score it 0
                    continue
                self.buffer.put(
                    Group(
                        problem=problem,
                        completions=group,
                        rewards=[float(s.reward) for s in part],  # type: ignore[arg-type]
                        accepted=[s.accepted for s in part],
                        policy_version=version,
                        sampled_at_step=step,
                    )
                )
            self._add("time/reward", latency)
            self._add("reward/requests", 1)
            self._add("rollout/dropped_groups", dropped)
            return dropped, latency
        finally:
            self.in_flight.release()

    def _scored(self, future: Future[tuple[int, float]]) -> None:
        exc = future.exception()
        if exc is not None:
            self.stop.set()
            self.buffer.close(exc)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=600)
        self.reward_pool.shutdown(wait=True, cancel_futures=True)


def learner_update(
    cfg: TrainConfig,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    groups: list[Group],
    pad_id: int,
    step: int,
) -> dict[str, float]:
    """One optimizer step on B groups; returns the step's metrics.

    The forward and backward run over ``algo.micro_batch_groups`` groups at a time. Both
    losses are means of per-group terms (V̂* and the GRPO advantages are per group), so
    weighting each chunk's loss by its share of the groups gives the full-batch gradient.
    """
    algo = cfg.algo
    b, g = len(groups), len(groups[0].completions)
    chunk_size = algo.micro_batch_groups or b
    optimizer.zero_grad(set_to_none=True)
    loss_sum = entropy_sum = n_tokens = 0.0
    log_ratios: list[torch.Tensor] = []
    for first in range(0, b, chunk_size):
        chunk = groups[first : first + chunk_size]
        comps = [c for grp in chunk for c in grp.completions]
        out = response_logprobs(
            model,
            [c.prompt_token_ids for c in comps],
            [c.token_ids for c in comps],
            cfg.rollout.temperature,
            pad_id,
        )
        device = out.token_logprobs.device
        n = len(chunk)
        rewards = torch.tensor([grp.rewards for grp in chunk], dtype=torch.float32, device=device)
        behavior = torch.tensor([c.logprob for c in comps], dtype=torch.float32, device=device)
        logprobs = out.sequence.view(n, g)
        if algo.loss == "oapl":
            loss = oapl_loss(logprobs, behavior.view(n, g), rewards, algo.beta_value, algo.beta_kl)
        else:
            behavior_tokens = torch.zeros_like(out.token_logprobs)
            for i, c in enumerate(comps):
                behavior_tokens[i, : len(c.token_logprobs)] = torch.tensor(c.token_logprobs)
            loss = grpo_loss(
                out.token_logprobs.view(n, g, -1),
                behavior_tokens.view(n, g, -1),
                rewards,
                out.mask.view(n, g, -1),
                algo.clip_eps,
            )
        (loss * (n / b)).backward()
        loss_sum += float(loss.detach()) * n / b
        entropy_sum += float(out.entropy.sum())
        n_tokens += float(out.mask.sum())
        log_ratios.append((logprobs.detach() - behavior.view(n, g)).flatten().cpu())
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), algo.grad_clip)
    optimizer.step()
    log_ratio = torch.cat(log_ratios)
    all_rewards = [r for grp in groups for r in grp.rewards]
    return {
        "loss": loss_sum,
        "reward/mean": sum(all_rewards) / len(all_rewards),
        "reward/pass_rate": sum(sum(grp.accepted) for grp in groups) / (b * g),
        "entropy/token": entropy_sum / max(n_tokens, 1.0),
        "logratio/learner_engine_mean": float(log_ratio.mean()),
        "logratio/learner_engine_abs": float(log_ratio.abs().mean()),
        "lag/steps": sum(step - grp.sampled_at_step for grp in groups) / b,
        "buffer/reuse": sum(grp.uses > 1 for grp in groups) / b,
        "grad_norm": float(grad_norm),
        "learner/tokens": n_tokens,
        "response/length": n_tokens / (b * g),
    }


def sync_engine(
    cfg: TrainConfig,
    model: torch.nn.Module,
    engine: RolloutEngine,
    weights_dir: Path,
    pad_id: int,
    check_prompts: list[str],
    seed: int,
) -> float:
    """Push the learner's weights to the engine through ``weights_dir``; returns the
    per-token max |Δ log-prob| on freshly sampled responses.

    Raises RuntimeError when the engine and the learner disagree after the reload.
    """
    save_weights(model, weights_dir)
    engine.load_weights(weights_dir)
    ro = cfg.rollout
    if ro.sync_check_samples == 0 or not check_prompts:
        return 0.0
    groups = engine.generate(check_prompts, 1, ro.temperature, ro.max_new_tokens, seed)
    comps = [grp[0] for grp in groups]
    with torch.no_grad():
        out = response_logprobs(
            model,
            [c.prompt_token_ids for c in comps],
            [c.token_ids for c in comps],
            ro.temperature,
            pad_id,
        )
    gap = 0.0
    for i, c in enumerate(comps):
        learner = out.token_logprobs[i, : len(c.token_logprobs)].cpu()
        if c.token_logprobs:
            gap = max(gap, float((learner - torch.tensor(c.token_logprobs)).abs().max()))
    if gap > ro.sync_check_tolerance:
        raise RuntimeError(
            f"weight sync check failed: engine and learner log-probs differ by {gap:.3g} per "
            f"token (tolerance {ro.sync_check_tolerance})"
        )
    return gap


def train(cfg: TrainConfig, engine: RolloutEngine | None = None) -> dict[str, Any]:
    """Run the configured training; returns the last metrics and the eval history.

    ``engine``: an engine already built from ``cfg.model.path`` (vLLM must be built in the
    main module); by default the one ``cfg.rollout.engine`` names. The run closes it.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    # -- set-up: run folder, distributed, learner, optimizer, resume ------------------------
    out_dir = Path(cfg.run.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    device = cfg.run.device
    if world > 1:  # under torchrun: one learner per rank, each with its own sampler
        backend = "nccl" if device.startswith("cuda") else "gloo"
        torch.distributed.init_process_group(backend)
        if device.startswith("cuda"):
            device = f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}"
            torch.cuda.set_device(device)
    is_main = rank == 0
    sync_dir = out_dir / ("sync" if world == 1 else f"sync-rank{rank}")
    if is_main:
        (out_dir / "config.toml").write_text(cfg.resolved_toml())
    seed = cfg.run.seed + 1000 * rank
    torch.manual_seed(seed)
    if cfg.run.torch_threads and torch.get_num_threads() != cfg.run.torch_threads:
        # for threads started later too, set OMP_NUM_THREADS before torch is imported
        torch.set_num_threads(cfg.run.torch_threads)

    tokenizer = AutoTokenizer.from_pretrained(cfg.model.path)
    pad_id = (
        tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    )
    dtype = torch.bfloat16 if cfg.run.dtype == "bfloat16" else torch.float32
    model: Any = AutoModelForCausalLM.from_pretrained(cfg.model.path, dtype=dtype)
    model.to(device)
    model.train()
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=cfg.algo.lr, weight_decay=cfg.algo.weight_decay
    )
    state: dict[str, Any] = {"step": 0, "version": 0, "evals": []}
    ckpt_root = out_dir / "checkpoints"
    found = checkpoint.latest(ckpt_root) if cfg.run.resume else None
    if found is not None:
        state = checkpoint.load(found, model, optimizer)
        log.info("resumed from %s at step %d", found, state["step"])
    learner: torch.nn.Module = model
    if world > 1:
        learner = torch.nn.parallel.DistributedDataParallel(model)

    rewards = make_reward_source(
        cfg.reward.source,
        **(
            {"reward_settings": cfg.reward.reward_settings}
            if cfg.reward.source == "local"
            else cfg.reward.model_dump(exclude={"source"})
        ),
    )
    problems = read_jsonl(cfg.data.problems)
    heldout = read_jsonl(cfg.data.heldout) if cfg.data.heldout else []
    metrics = MetricsWriter(out_dir, cfg.log.tensorboard) if is_main else None
    buffer = RolloutBuffer(seed=seed)
    buffer.clear(state["version"])
    learner_step = [state["step"]]

    # -- rollouts: an engine and its sampler thread, or an offline dataset ----------------
    sampler: Sampler | None = None
    check_prompts = [
        cfg.data.prompt_template.format(prompt=p["prompt"])
        for p in problems[: cfg.rollout.sync_check_samples]
    ]
    if cfg.data.offline:
        from trainer.offline import load_offline_groups

        with torch.no_grad():
            groups, dropped = load_offline_groups(
                read_jsonl(cfg.data.offline),
                {p["id"]: p for p in problems},
                cfg.rollout.group_size,
                tokenizer,
                model,
                rewards,
                cfg.data.prompt_template,
                cfg.rollout.temperature,
            )
        if not groups:
            raise ValueError("offline data gave no complete group")
        buffer.extend(groups)
        log.info("offline: %d groups (%d dropped for sandbox_error)", len(groups), dropped)
    else:
        engine_kwargs: dict[str, Any] = (
            {
                "tensor_parallel_size": cfg.rollout.tensor_parallel_size,
                "gpu_memory_utilization": cfg.rollout.gpu_memory_utilization,
                "seed": seed,
                "dtype": cfg.run.dtype,
                "max_model_len": cfg.rollout.max_model_len,
            }
            if cfg.rollout.engine == "vllm"
            else {"device": device}
        )
        if engine is None:
            engine = make_engine(cfg.rollout.engine, cfg.model.path, **engine_kwargs)
        if found is not None:  # the engine starts from the resumed weights
            sync_engine(cfg, model, engine, sync_dir, pad_id, check_prompts, seed)
        sampler = Sampler(cfg, engine, rewards, buffer, problems, learner_step, seed).start()

    def run_eval(step: int) -> None:
        if engine is None or not heldout or not is_main:
            return
        t0 = time.perf_counter()
        result = evaluate(
            engine,
            rewards,
            heldout,
            cfg.eval.samples_per_problem,
            cfg.eval.ks,
            cfg.eval.temperature,
            cfg.rollout.max_new_tokens,
            cfg.data.prompt_template,
            seed=cfg.run.seed + 7,
        )
        result["time/eval"] = time.perf_counter() - t0
        state["evals"].append({"step": step, **result})
        assert metrics is not None
        metrics.write(step, result)
        log.info("step %d eval %s", step, {k: round(v, 4) for k, v in result.items()})

    if cfg.eval.at_start and state["step"] == 0 and sampler is not None:
        with sampler.paused():
            run_eval(0)

    # -- the loop: take B groups → update → (sync + clear + eval) → log → checkpoint -------
    last: dict[str, float] = {}
    window_t0 = time.perf_counter()
    try:
        while state["step"] < cfg.run.steps:
            step = state["step"]
            t0 = time.perf_counter()
            batch = buffer.take(
                cfg.algo.groups_per_step,
                cfg.algo.min_fresh_groups if sampler is not None else 0,
                timeout_s=cfg.reward.timeout_s * cfg.reward.max_attempts + 600,
            )
            t_wait = time.perf_counter() - t0

            t0 = time.perf_counter()
            values = learner_update(cfg, learner, optimizer, batch, pad_id, step)
            t_update = time.perf_counter() - t0
            values["time/wait"] = t_wait
            values["time/update"] = t_update
            values["throughput/learner_tokens_per_s"] = values["learner/tokens"] / max(
                t_update, 1e-9
            )
            state["step"] = step + 1
            learner_step[0] = state["step"]

            every = cfg.algo.sync_every_steps
            if engine is not None and sampler is not None and every and state["step"] % every == 0:
                t0 = time.perf_counter()
                with sampler.paused():
                    gap = sync_engine(
                        cfg, model, engine, sync_dir, pad_id, check_prompts, seed + state["step"]
                    )
                    state["version"] += 1
                    buffer.clear(state["version"])
                    values["sync/logprob_gap"] = gap
                    values["time/sync"] = time.perf_counter() - t0
                    run_eval(state["step"])

            if sampler is not None:
                stats = sampler.drain_stats()
                elapsed = time.perf_counter() - window_t0
                window_t0 = time.perf_counter()
                values["throughput/rollout_tokens_per_s"] = stats.get("rollout/tokens", 0.0) / max(
                    elapsed, 1e-9
                )
                values["time/generate"] = stats.get("time/generate", 0.0)
                values["time/reward"] = stats.get("time/reward", 0.0)
                n_req = stats.get("reward/requests", 0.0)
                values["reward/latency_s"] = stats["time/reward"] / n_req if n_req else float("nan")
                values["rollout/dropped_groups"] = stats.get("rollout/dropped_groups", 0.0)
                values["buffer/dropped_stale"] = float(buffer.dropped_stale)
            values["policy/version"] = float(state["version"])
            last = values
            if metrics is not None and state["step"] % cfg.log.every_steps == 0:
                metrics.write(state["step"], values)
                log.info(
                    "step %d loss %.4f reward %.3f pass %.3f",
                    state["step"],
                    values["loss"],
                    values["reward/mean"],
                    values["reward/pass_rate"],
                )
            ck = cfg.checkpoint.every_steps
            if is_main and ck and state["step"] % ck == 0:
                checkpoint.save(
                    ckpt_root, state["step"], model, optimizer, state, cfg.checkpoint.keep
                )
    finally:
        if sampler is not None:
            sampler.close()

    # -- the end: last eval, final weights, close ---------------------------------------------
    if is_main:
        if engine is not None and (
            not state["evals"] or state["evals"][-1]["step"] != state["step"]
        ):
            t0 = time.perf_counter()
            sync_engine(cfg, model, engine, sync_dir, pad_id, check_prompts, seed)
            run_eval(state["step"])
        checkpoint.save(ckpt_root, state["step"], model, optimizer, state, cfg.checkpoint.keep)
        model.save_pretrained(out_dir / "final")
        tokenizer.save_pretrained(out_dir / "final")
    if engine is not None:
        engine.close()
    rewards.close()
    if metrics is not None:
        metrics.close()
    if world > 1:
        torch.distributed.destroy_process_group()
    return {"last": last, "evals": state["evals"], "step": state["step"]}
