"""The training spine, top to bottom: rollout → reward → buffer → update → sync → eval.

1. A ``Sampler`` thread asks the engine for G completions per prompt with the engine's
   (lagged) weights, hands each batch to a reward pool and goes on generating while it is
   scored: generation and rewards overlap. A scored group enters the buffer tagged with the
   policy version that sampled it; a group with any missing reward (``sandbox_error``) is
   dropped, never scored 0. With the engine on its own devices (``placement = "separate"``)
   it generates while the learner steps; colocated with ``sleep_level`` it sleeps then.
2. The learner takes B groups per step and applies the OAPL update (or the GRPO baseline)
   in micro-batches under a token budget, float32 master weights with bf16 autocast.
3. Every L steps the learner's weights go to the engine (in memory: gloo, NCCL or CUDA
   IPC; files as the fallback), a few samples are re-scored to prove the engine and
   learner agree, and the buffer is cleared.
4. Every N steps (independent of L) held-out pass@k is measured from the learner's
   weights: the engine gets them for the evaluation and its lagged weights back after.
5. Metrics go to ``metrics.jsonl`` and TensorBoard; checkpoints allow resume.

Every stage is timed under the metric key ``time/<stage>``. With ``data.offline`` set there
is no sampler and no sync: offline RL on a fixed dataset, every pass reshuffled; an engine
is still built when there are held-out problems, for evaluation only.

With ``rollout.synchronous`` (the deterministic mode experiments use) there is no sampler
thread either: step t samples B prompts chosen by a generator seeded with (seed, t), with
the engine's weights of the last sync, scores them and trains on exactly those groups, so
the batches and every number after them do not depend on thread timing.

What a run spends is counted (``trainer.cost``) and written to ``cost.json``: generations,
verifier samples, calls, wall and CPU seconds for training rewards and, apart, for
evaluation; learner, generation and sync seconds.
"""

from __future__ import annotations

import json
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
from trainer.cost import MeteredRewards
from trainer.learner import (
    autocast,
    distribute,
    load_policy,
    lr_factor,
    make_optimizer,
    micro_batches,
    set_lr,
)
from trainer.metrics import MetricsWriter
from trainer.oapl import group_advantages, grpo_surrogates, oapl_residuals, oapl_targets
from trainer.passk import evaluate
from trainer.policy import LearnerWeights, StoredWeights, response_logprobs, save_pretrained
from trainer.problems import PromptRenderer, read_jsonl
from trainer.rewards import RewardRequest, RewardSource, make_reward_source
from trainer.rollout import Completion, RolloutEngine, Sampling, make_engine

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
        renderer: PromptRenderer,
        sampling: Sampling,
        learner_step: list[int],
        seed: int,
    ) -> None:
        self.cfg, self.engine, self.rewards, self.buffer = cfg, engine, rewards, buffer
        self.problems, self.renderer, self.sampling = problems, renderer, sampling
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
                prompts = [self.renderer.ids(p) for p in problems]
                with self.engine_lock:
                    version, step = self.buffer.version, self.learner_step[0]
                    t0 = time.perf_counter()
                    groups = self.engine.generate(
                        prompts,
                        ro.group_size,
                        self.sampling,
                        seed=self.seed * 1_000_003 + self._batch,
                    )
                    gen_s = time.perf_counter() - t0
                self._batch += 1
                n_tokens = sum(len(c.token_ids) for g in groups for c in g)
                self._add("time/generate", gen_s)
                self._add("rollout/tokens", n_tokens)
                self._add("rollout/truncated", sum(c.truncated for g in groups for c in g))
                self._add("rollout/samples", sum(len(g) for g in groups))
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


def rollout_step(
    cfg: TrainConfig,
    engine: RolloutEngine,
    rewards: RewardSource,
    problems: list[dict[str, Any]],
    renderer: PromptRenderer,
    sampling: Sampling,
    seed: int,
    step: int,
    version: int,
) -> tuple[list[Group], dict[str, float]]:
    """The synchronous rollout of step ``step``: B prompts → engine → verifier → groups.

    The prompts and the engine's sampling seed depend on (seed, step) alone. A group with
    any ``sandbox_error`` is dropped (counted), never scored 0.
    """
    ro = cfg.rollout
    rng = random.Random(seed * 1_000_003 + step)
    chosen = rng.sample(problems, min(cfg.algo.groups_per_step, len(problems)))
    t0 = time.perf_counter()
    sampled = engine.generate(
        [renderer.ids(p) for p in chosen], ro.group_size, sampling, seed=seed * 1_000_003 + step
    )
    gen_s = time.perf_counter() - t0
    requests = [
        RewardRequest(p, c.text, f"v{version}-s{step}-{p['id']}-{j}")
        for p, g in zip(chosen, sampled, strict=True)
        for j, c in enumerate(g)
    ]
    t0 = time.perf_counter()
    scored = rewards.score(requests)
    reward_s = time.perf_counter() - t0
    groups: list[Group] = []
    dropped = 0
    for i, (problem, group) in enumerate(zip(chosen, sampled, strict=True)):
        part = scored[i * ro.group_size : (i + 1) * ro.group_size]
        if any(x.reward is None for x in part):
            dropped += 1
            continue
        groups.append(
            Group(
                problem=problem,
                completions=group,
                rewards=[float(x.reward) for x in part],  # type: ignore[arg-type]
                accepted=[x.accepted for x in part],
                policy_version=version,
                sampled_at_step=step,
            )
        )
    comps = [c for g in sampled for c in g]
    stats = {
        "time/generate": gen_s,
        "time/reward": reward_s,
        "rollout/tokens": float(sum(len(c.token_ids) for c in comps)),
        "rollout/truncated": sum(c.truncated for c in comps) / max(len(comps), 1),
        "rollout/samples": float(len(comps)),
        "rollout/dropped_groups": float(dropped),
    }
    return groups, stats


def learner_update(
    cfg: TrainConfig,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    groups: list[Group],
    pad_id: int,
    step: int,
    device: str = "cpu",
) -> dict[str, float]:
    """One optimizer step on B groups; returns the step's metrics.

    Targets (OAPL's r − V̂*, GRPO's advantages) come from each group's rewards alone, so the
    samples can be packed into any micro-batches (``algo.micro_batch_tokens``): each pass
    adds its samples' share of the B·G mean, and the summed gradient is the full batch's.
    Truncated responses get weight 0 with ``algo.mask_truncated``.
    """
    algo, ro = cfg.algo, cfg.rollout
    b, g = len(groups), len(groups[0].completions)
    comps = [c for grp in groups for c in grp.completions]
    rewards = torch.tensor([grp.rewards for grp in groups], dtype=torch.float64)
    if algo.loss == "oapl":
        targets = oapl_targets(rewards, algo.beta_value).flatten()
    else:
        targets = group_advantages(rewards).flatten()
    weights = torch.tensor([0.0 if algo.mask_truncated and c.truncated else 1.0 for c in comps])
    lr = cfg.optim.lr * lr_factor(step, cfg.run.steps, cfg.optim)
    set_lr(optimizer, lr)
    optimizer.zero_grad(set_to_none=True)
    loss_sum = entropy_sum = n_tokens = 0.0
    log_ratio = torch.zeros(len(comps))
    lengths = [len(c.prompt_token_ids) + len(c.token_ids) for c in comps]
    passes = micro_batches(lengths, algo.micro_batch_tokens)
    for idx in passes:
        part = [comps[i] for i in idx]
        with autocast(device, cfg.run.compute_dtype):
            out = response_logprobs(
                model,
                [c.prompt_token_ids for c in part],
                [c.token_ids for c in part],
                ro.temperature,
                pad_id,
                ro.top_k,
                ro.top_p,
            )
        dev = out.token_logprobs.device
        w = weights[idx].to(dev)
        target = targets[idx].to(dev, torch.float32)
        if algo.loss == "oapl":
            behavior = torch.tensor([c.logprob for c in part], device=dev)
            residual = oapl_residuals(out.sequence, behavior, target, algo.beta_kl)
            loss = (residual.pow(2) * w).sum() / (b * g)
            log_ratio[idx] = (out.sequence.detach() - behavior).cpu()
        else:
            behavior_tokens = torch.zeros_like(out.token_logprobs)
            for i, c in enumerate(part):
                behavior_tokens[i, : len(c.token_logprobs)] = torch.tensor(c.token_logprobs)
            surrogate = grpo_surrogates(
                out.token_logprobs, behavior_tokens, target, out.mask, algo.clip_eps
            )
            loss = -(surrogate * w).sum() / (b * g)
            behavior = torch.tensor([c.logprob for c in part], device=dev)
            log_ratio[idx] = (out.sequence.detach() - behavior).cpu()
        loss.backward()
        loss_sum += float(loss.detach())
        entropy_sum += float(out.entropy.sum())
        n_tokens += float(out.mask.sum())
    grad_norm = torch.nn.utils.clip_grad_norm_(
        [p for p in model.parameters() if p.requires_grad], cfg.optim.grad_clip
    )
    optimizer.step()
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
        "optim/lr": lr,
        "learner/tokens": n_tokens,
        "learner/micro_batches": float(len(passes)),
        "response/length": n_tokens / (b * g),
        "response/truncated": sum(c.truncated for c in comps) / (b * g),
    }


def check_sync(
    cfg: TrainConfig,
    model: torch.nn.Module,
    engine: RolloutEngine,
    prompts: list[list[int]],
    sampling: Sampling,
    pad_id: int,
    seed: int,
    device: str,
) -> float:
    """The per-token max |learner − engine| log-prob gap on freshly sampled responses.

    Raises RuntimeError above ``rollout.sync_check_tolerance``.
    """
    if not prompts:
        return 0.0
    comps: list[Completion] = [grp[0] for grp in engine.generate(prompts, 1, sampling, seed)]
    with torch.no_grad(), autocast(device, cfg.run.compute_dtype):
        out = response_logprobs(
            model,
            [c.prompt_token_ids for c in comps],
            [c.token_ids for c in comps],
            sampling.temperature,
            pad_id,
            sampling.top_k,
            sampling.top_p,
        )
    gap = 0.0
    for i, c in enumerate(comps):
        learner = out.token_logprobs[i, : len(c.token_logprobs)].cpu()
        if c.token_logprobs:
            gap = max(gap, float((learner - torch.tensor(c.token_logprobs)).abs().max()))
    if gap > cfg.rollout.sync_check_tolerance:
        raise RuntimeError(
            f"weight sync check failed: engine and learner log-probs differ by {gap:.3g} per "
            f"token (tolerance {cfg.rollout.sync_check_tolerance})"
        )
    return gap


def resolve_weight_sync(cfg: TrainConfig, device: str, world: int) -> str:
    """The concrete weight path for ``rollout.weight_sync = "auto"`` (and checks the rest)."""
    ro = cfg.rollout
    if ro.engine != "vllm":
        return "memory"
    chosen = ro.weight_sync
    if chosen == "auto":
        if not device.startswith("cuda"):
            chosen = "gloo"
        elif ro.placement == "separate":
            chosen = "nccl"
        else:
            # CUDA IPC gathers handles over the default group for one shared engine; with
            # one engine per rank the colocated ranks fall back to files
            chosen = "ipc" if world == 1 else "files"
    if chosen == "ipc" and world > 1:
        raise ValueError("weight_sync = 'ipc' supports one learner process; use 'files'")
    if chosen in ("nccl", "ipc") and not device.startswith("cuda"):
        raise ValueError(f"weight_sync = {chosen!r} needs a CUDA learner (run.device)")
    return chosen


def train(cfg: TrainConfig, engine: RolloutEngine | None = None) -> dict[str, Any]:
    """Run the configured training; returns the last metrics and the eval history.

    ``engine``: an engine already built from ``cfg.model.path`` (vLLM must be built in the
    main module); by default the one ``cfg.rollout.engine`` names. The run closes it.
    """
    from transformers import AutoTokenizer

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
    elif device.startswith("cuda"):
        device = "cuda:0" if device == "cuda" else device
        torch.cuda.set_device(device)  # NCCL and IPC weight sync use the current device
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
    data = cfg.data
    renderer = PromptRenderer(
        tokenizer, data.prompt_template, data.chat_template, data.system_prompt,
        data.max_prompt_tokens,
    )  # fmt: skip
    problems, too_long = renderer.fitting(read_jsonl(data.problems))
    heldout, heldout_too_long = renderer.fitting(read_jsonl(data.heldout) if data.heldout else [])
    if too_long or heldout_too_long:
        log.info("dropped %d + %d problems over %s prompt tokens", too_long,
                 heldout_too_long, data.max_prompt_tokens)  # fmt: skip
    if not problems:
        raise ValueError("no training problem fits data.max_prompt_tokens")
    model = load_policy(cfg.model, device)
    learner: torch.nn.Module = model
    if world > 1:
        learner = distribute(model, cfg.run.strategy, device)
    optimizer = make_optimizer(learner, cfg.optim, device)
    state: dict[str, Any] = {"step": 0, "version": 0, "evals": []}
    ckpt_root = out_dir / "checkpoints"
    found = checkpoint.latest(ckpt_root) if cfg.run.resume else None
    if found is not None:
        state = checkpoint.load(found, model, optimizer)
        log.info("resumed from %s at step %d", found, state["step"])

    source = make_reward_source(
        cfg.reward.source,
        **(
            {"reward_settings": cfg.reward.reward_settings}
            if cfg.reward.source == "local"
            else cfg.reward.model_dump(exclude={"source"})
        ),
    )
    rewards = MeteredRewards(source)  # training rewards: part of the run's cost
    eval_rewards = MeteredRewards(source, close_inner=False)  # measuring it: counted apart
    spent = {"generations": 0.0, "time/update": 0.0, "time/generate": 0.0, "time/sync": 0.0}
    reference_lp = _reference_scorer(cfg, device) if cfg.eval.kl_reference else None
    metrics = MetricsWriter(out_dir, cfg.log.tensorboard) if is_main else None
    ro = cfg.rollout
    sampling = Sampling(ro.temperature, ro.top_p, ro.top_k, ro.max_new_tokens, tuple(ro.stop))
    eval_sampling = Sampling(
        cfg.eval.temperature, cfg.eval.top_p, ro.top_k, ro.max_new_tokens, tuple(ro.stop)
    )
    engine_dtype = cfg.run.compute_dtype if ro.dtype == "auto" else ro.dtype
    wire_dtype = torch.bfloat16 if engine_dtype == "bfloat16" else torch.float32
    check_prompts = [renderer.ids(p) for p in problems[: ro.sync_check_samples]]
    buffer = RolloutBuffer(seed=seed)
    buffer.clear(state["version"])
    learner_step = [state["step"]]

    # -- rollouts: an engine and its sampler thread, or an offline dataset ----------------
    sampler: Sampler | None = None
    offline = None
    if data.offline:
        from trainer.offline import OfflineBatches, load_offline_groups

        groups, dropped = load_offline_groups(
            read_jsonl(data.offline), {p["id"]: p for p in problems}, ro.group_size,
            renderer, model, rewards, sampling,
        )  # fmt: skip
        offline = OfflineBatches(groups, seed=seed)
        log.info("offline: %d groups (%d dropped for sandbox_error)", len(groups), dropped)
    needs_engine = not data.offline or bool(heldout)  # offline: for evaluation only
    weight_sync = resolve_weight_sync(cfg, device, world)
    if engine is None and needs_engine:
        engine_kwargs: dict[str, Any] = (
            {
                "tensor_parallel_size": ro.tensor_parallel_size,
                "gpu_memory_utilization": ro.gpu_memory_utilization,
                "seed": seed,
                "dtype": engine_dtype,
                "max_model_len": ro.max_model_len,
                "weight_sync": weight_sync,
                "sync_dir": sync_dir,
                "devices": ro.devices if ro.placement == "separate" else [],
                "sleep_level": ro.sleep_level,
            }
            if ro.engine == "vllm"
            else {"device": f"cuda:{ro.devices[0]}" if ro.devices else device}
        )
        engine = make_engine(ro.engine, cfg.model.path, **engine_kwargs)
    engine_weights: StoredWeights | None = None  # the engine's lagged weights, kept for evals
    keep_lagged = bool(
        heldout and cfg.eval.every_steps and not data.offline
        and (not cfg.algo.sync_every_steps or cfg.eval.every_steps % cfg.algo.sync_every_steps)
    )  # fmt: skip

    def sync(step_seed: int) -> float:
        """Learner weights into the engine, then the log-prob check; returns the gap."""
        nonlocal engine_weights
        assert engine is not None
        weights = LearnerWeights(learner, wire_dtype)
        if keep_lagged:
            engine_weights = weights.snapshot()
            engine.update_weights(engine_weights)
        else:
            engine.update_weights(weights)
        return check_sync(cfg, learner, engine, check_prompts, sampling, pad_id, step_seed, device)

    if engine is not None and (found is not None or data.offline or keep_lagged):
        sync(seed)  # the engine starts from the resumed weights (and a kept lagged copy)
    if not data.offline and not ro.synchronous:
        assert engine is not None
        sampler = Sampler(
            cfg, engine, rewards, buffer, problems, renderer, sampling, learner_step, seed
        ).start()

    evaluated_at: list[int] = [e["step"] for e in state["evals"]][-1:]

    def run_eval(step: int, engine_is_learner: bool) -> None:
        """Held-out pass@k from the learner's weights (the engine's are restored after).

        Every rank loads and checks its engine (gathering FSDP shards and the learner's
        forward are collective); the main rank evaluates and writes.
        """
        evaluated_at.append(step)  # on every rank (only the main rank keeps the results)
        if engine is None or not heldout:
            return
        t0 = time.perf_counter()
        result: dict[str, float] = {}
        if not engine_is_learner:
            engine.update_weights(LearnerWeights(learner, wire_dtype))
            result["eval/logprob_gap"] = check_sync(
                cfg, learner, engine, check_prompts, sampling, pad_id, seed + step, device
            )
        if is_main:
            result |= evaluate(
                engine, eval_rewards, heldout, renderer, cfg.eval.samples_per_problem,
                cfg.eval.ks, eval_sampling, seed=cfg.run.seed + 7,
                group_by=cfg.eval.group_by, reference=reference_lp,
            )  # fmt: skip
        if not engine_is_learner and engine_weights is not None:
            engine.update_weights(engine_weights)
        if not is_main:
            return
        result["time/eval"] = time.perf_counter() - t0
        state["evals"].append({"step": step, **result})
        assert metrics is not None
        metrics.write(step, result)
        log.info("step %d eval %s", step, {k: round(v, 4) for k, v in result.items()})

    if cfg.eval.at_start and state["step"] == 0:
        with sampler.paused() if sampler is not None else _nothing():
            run_eval(0, engine_is_learner=True)

    # -- the loop: take B groups → update → sync + clear → eval → log → checkpoint ---------
    last: dict[str, float] = {}
    window_t0 = time.perf_counter()
    sleeps = engine is not None and ro.sleep_level > 0 and sampler is not None
    synchronous = ro.synchronous and not data.offline
    last_sync_step = state["step"]  # the engine holds the learner's weights of this step
    try:
        while state["step"] < cfg.run.steps:
            step = state["step"]
            t0 = time.perf_counter()
            rollout_stats: dict[str, float] = {}
            if offline is not None:
                batch = offline.take(cfg.algo.groups_per_step)
            elif synchronous:
                assert engine is not None
                batch, rollout_stats = rollout_step(
                    cfg, engine, rewards, problems, renderer, sampling, seed, step,
                    state["version"],
                )  # fmt: skip
                rollout_stats["lag/engine_steps"] = float(step - last_sync_step)
                spent["generations"] += rollout_stats["rollout/samples"]
                spent["time/generate"] += rollout_stats["time/generate"]
                if not batch:
                    raise RuntimeError(f"step {step}: every group had a sandbox_error")
            else:
                batch = buffer.take(
                    cfg.algo.groups_per_step,
                    cfg.algo.min_fresh_groups,
                    timeout_s=cfg.reward.timeout_s * cfg.reward.max_attempts + 600,
                )
            t_wait = time.perf_counter() - t0

            t0 = time.perf_counter()
            if sleeps:  # colocated: the engine sleeps while the learner has the device
                assert sampler is not None and engine is not None
                with sampler.paused():
                    engine.sleep()
                    values = learner_update(cfg, learner, optimizer, batch, pad_id, step, device)
                    engine.wake_up()
            else:
                values = learner_update(cfg, learner, optimizer, batch, pad_id, step, device)
            t_update = time.perf_counter() - t0
            values["time/wait"] = t_wait
            values["time/update"] = t_update
            spent["time/update"] += t_update
            values |= rollout_stats
            values["throughput/learner_tokens_per_s"] = values["learner/tokens"] / max(
                t_update, 1e-9
            )
            state["step"] = step + 1
            learner_step[0] = state["step"]

            every = cfg.algo.sync_every_steps
            synced = False
            online = sampler is not None or synchronous
            if online and every and state["step"] % every == 0:
                t0 = time.perf_counter()
                with sampler.paused() if sampler is not None else _nothing():
                    values["sync/logprob_gap"] = sync(seed + state["step"])
                    state["version"] += 1
                    buffer.clear(state["version"])
                values["time/sync"] = time.perf_counter() - t0
                spent["time/sync"] += values["time/sync"]
                last_sync_step = state["step"]
                synced = True

            if cfg.eval.every_steps and state["step"] % cfg.eval.every_steps == 0:
                with sampler.paused() if sampler is not None else _nothing():
                    run_eval(state["step"], engine_is_learner=synced)

            if sampler is not None:
                stats = sampler.drain_stats()
                spent["generations"] += stats.get("rollout/samples", 0.0)
                spent["time/generate"] += stats.get("time/generate", 0.0)
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
                values["rollout/truncated"] = stats.get("rollout/truncated", 0.0) / max(
                    stats.get("rollout/samples", 0.0), 1.0
                )
                values["buffer/dropped_stale"] = float(buffer.dropped_stale)
            elif offline is not None:
                values["offline/passes"] = float(offline.passes)
            values["policy/version"] = float(state["version"])
            values["cost/generations"] = spent["generations"]
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
            if ck and state["step"] % ck == 0:
                checkpoint.save(
                    ckpt_root, state["step"], model, optimizer, state, cfg.checkpoint.keep, is_main
                )
    finally:
        if sampler is not None:
            sampler.close()

    # -- the end: last eval, final weights, close ---------------------------------------------
    if not evaluated_at or evaluated_at[-1] != state["step"]:
        run_eval(state["step"], engine_is_learner=False)
    checkpoint.save(ckpt_root, state["step"], model, optimizer, state, cfg.checkpoint.keep, is_main)
    save_pretrained(learner, tokenizer, out_dir / "final", is_main)
    cost = {
        "generations": spent["generations"],
        **rewards.totals("verifier"),
        **eval_rewards.totals("eval_verifier"),
        "learner_s": spent["time/update"],
        "generate_s": spent["time/generate"],
        "sync_s": spent["time/sync"],
        "steps": float(state["step"]),
    }
    if is_main:
        (out_dir / "cost.json").write_text(json.dumps(cost, indent=1) + "\n")
    if engine is not None:
        engine.close()
    rewards.close()
    if metrics is not None:
        metrics.close()
    if world > 1:
        torch.distributed.destroy_process_group()
    return {"last": last, "evals": state["evals"], "step": state["step"], "cost": cost}


def _reference_scorer(cfg: TrainConfig, device: str) -> Any:
    """ln π_ref(y|x) of completions under ``eval.kl_reference`` (a frozen float32 copy)."""
    from transformers import AutoModelForCausalLM

    assert cfg.eval.kl_reference is not None
    ref: Any = AutoModelForCausalLM.from_pretrained(cfg.eval.kl_reference, dtype=torch.float32)
    ref.to(device).eval()
    pad = ref.config.pad_token_id if ref.config.pad_token_id is not None else 0
    ro, ev = cfg.rollout, cfg.eval

    def score(comps: list[Completion]) -> list[float]:
        out: list[float] = []
        with torch.no_grad():
            for start in range(0, len(comps), 64):
                part = comps[start : start + 64]
                lp = response_logprobs(
                    ref, [c.prompt_token_ids for c in part], [c.token_ids for c in part],
                    ev.temperature, pad, ro.top_k, ev.top_p,
                )  # fmt: skip
                out += lp.sequence.tolist()
        return out

    return score


@contextmanager
def _nothing() -> Iterator[None]:
    yield
