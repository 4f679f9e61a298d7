"""The Helm chart in k8s/codereward, proven without a cluster.

Helm itself (Helm 4's Go SDK, embedded in the `helm-python-sdk` wheel) lints the chart and
renders it with the defaults and with every values file in its ci/ folder. Each manifest is
validated against the Kubernetes OpenAPI schemas of the chart's oldest supported version and
of the newest one `kubernetes-validate` ships; the KEDA kinds, whose CRD schema no PyPI
package carries, are checked against the subset of KEDA's CRD that the chart writes. checkov
scans everything rendered; a failed check fails the suite, and a suppression (a
`checkov.io/skip*` annotation, with its reason in the manifest) must also be listed in the
chart README's table of justified findings. The `helm test` scripts run here against a
real `codereward serve` (embedded mode, real sandbox). checkov runs from its own virtualenv
(`make chart-tools`, part of `make install`) because its pins clash with the service's.
"""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import helm_python as helm
import jsonschema
import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "k8s" / "codereward"
README = CHART / "README.md"
RELEASE, NAMESPACE = "rel", "codereward"
VALUE_FILES = {p.stem: p for p in sorted((CHART / "ci").glob("*-values.yaml"))}
VALUE_SETS = ["default", *VALUE_FILES]
# The chart's kubeVersion floor and the newest schemas kubernetes-validate carries.
KUBE_VERSIONS = ["1.30.0", kubernetes_validate.latest_version()]
KEDA_KINDS = {"ScaledObject", "TriggerAuthentication"}
CHECKOV = Path(
    os.environ.get("CHECKOV", Path(sys.prefix) / "tools" / "checkov" / "bin" / "checkov")
)
DNS_PORTS = [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}]

# The part of KEDA's v2 CRDs (keda.sh/v1alpha1) the chart writes: field names and types as
# in KEDA's published CRD, closed with additionalProperties so a typo cannot pass.
_STR_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
_META = {
    "type": "object",
    "required": ["name", "namespace"],
    "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}},
}
KEDA_SCHEMAS: dict[str, dict[str, Any]] = {
    "ScaledObject": {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "properties": {
            "apiVersion": {"const": "keda.sh/v1alpha1"},
            "metadata": _META,
            "spec": {
                "type": "object",
                "required": ["scaleTargetRef", "triggers"],
                "additionalProperties": False,
                "properties": {
                    "scaleTargetRef": {
                        "type": "object",
                        "required": ["name"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string"},
                            "kind": {"type": "string"},
                            "apiVersion": {"type": "string"},
                        },
                    },
                    "minReplicaCount": {"type": "integer", "minimum": 0},
                    "maxReplicaCount": {"type": "integer", "minimum": 1},
                    "pollingInterval": {"type": "integer", "minimum": 1},
                    "cooldownPeriod": {"type": "integer", "minimum": 0},
                    "advanced": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "horizontalPodAutoscalerConfig": {
                                "type": "object",
                                "additionalProperties": False,
                                "properties": {"behavior": {"type": "object"}},
                            }
                        },
                    },
                    "triggers": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "required": ["type", "metadata"],
                            "additionalProperties": False,
                            "properties": {
                                "type": {"type": "string"},
                                "metadata": _STR_MAP,
                                "authenticationRef": {
                                    "type": "object",
                                    "required": ["name"],
                                    "additionalProperties": False,
                                    "properties": {"name": {"type": "string"}},
                                },
                            },
                        },
                    },
                },
            },
        },
    },
    "TriggerAuthentication": {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "properties": {
            "apiVersion": {"const": "keda.sh/v1alpha1"},
            "metadata": _META,
            "spec": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "secretTargetRef": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["parameter", "name", "key"],
                            "additionalProperties": False,
                            "properties": {
                                "parameter": {"type": "string"},
                                "name": {"type": "string"},
                                "key": {"type": "string"},
                            },
                        },
                    }
                },
            },
        },
    },
}
# Keys of the redis trigger's metadata the chart sets, with the forms KEDA parses.
REDIS_TRIGGER_METADATA = {
    "address": r"^[^:\s]+:\d+$",
    "listName": r"^[a-z0-9-]+$",
    "listLength": r"^\d+$",
    "activationListLength": r"^\d+$",
    "databaseIndex": r"^\d+$",
    "enableTLS": r"^(true|false)$",
}


def values_of(value_set: str) -> dict[str, Any]:
    if value_set == "default":
        return {}
    return yaml.safe_load(VALUE_FILES[value_set].read_text())


def render_values(values: dict[str, Any]) -> list[dict[str, Any]]:
    """The chart's manifests under these values (NOTES.txt left out)."""
    with helm.Chart.load(str(CHART)) as chart:
        out = chart.render(values, name=RELEASE, namespace=NAMESPACE, is_install=True)
    docs = []
    for path, text in sorted(out.items()):
        if path.endswith("NOTES.txt"):
            continue
        docs += [d for d in yaml.safe_load_all(text) if d]
    return docs


@functools.cache
def rendered(value_set: str) -> tuple[dict[str, Any], ...]:
    return tuple(render_values(values_of(value_set)))


def of_kind(value_set: str, kind: str) -> list[dict[str, Any]]:
    return [d for d in rendered(value_set) if d["kind"] == kind]


def pod_specs(value_set: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(manifest, pod spec) of everything that runs a pod."""
    out = []
    for doc in rendered(value_set):
        if doc["kind"] == "Pod":
            out.append((doc, doc["spec"]))
        elif doc["kind"] in ("Deployment", "StatefulSet", "Job"):
            out.append((doc, doc["spec"]["template"]["spec"]))
    return out


def pod_labels(doc: dict[str, Any]) -> dict[str, str]:
    if doc["kind"] == "Pod":
        return doc["metadata"]["labels"]
    return doc["spec"]["template"]["metadata"]["labels"]


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    assert set(selector) <= {"matchLabels"}, f"unexpected selector form {selector}"
    return all(labels.get(k) == v for k, v in selector.get("matchLabels", {}).items())


def component(value_set: str, kind: str, name: str) -> dict[str, Any]:
    (doc,) = [d for d in of_kind(value_set, kind) if d["metadata"]["name"] == name]
    return doc


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env", [])}


def redis_peers(value_set: str) -> list[dict[str, Any]]:
    """Where Redis lives for this value set, as NetworkPolicy peers."""
    redis = values_of(value_set).get("redis", {})
    if redis.get("enabled", True):
        sts = component(value_set, "StatefulSet", f"{RELEASE}-codereward-redis")
        return [{"podSelector": {"matchLabels": sts["spec"]["selector"]["matchLabels"]}}]
    return redis["external"]["networkPolicyPeers"]


def assert_egress_only_redis(value_set: str, rules: list[dict[str, Any]]) -> None:
    """Redis on its port, and DNS only when an external Redis must be resolved by name."""
    redis = values_of(value_set).get("redis", {})
    in_chart = redis.get("enabled", True)
    redis_port = 6379 if in_chart else redis["external"]["port"]
    redis_rule, *rest = rules
    assert redis_rule == {
        "to": redis_peers(value_set),
        "ports": [{"protocol": "TCP", "port": redis_port}],
    }
    if in_chart:
        assert rest == []
        return
    (dns_rule,) = rest
    assert dns_rule["ports"] == DNS_PORTS
    (peer,) = dns_rule["to"]
    assert peer == {
        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
        "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
    }


def policies_selecting(value_set: str, labels: dict[str, str]) -> list[dict[str, Any]]:
    return [
        p for p in of_kind(value_set, "NetworkPolicy") if selects(p["spec"]["podSelector"], labels)
    ]


# -- lint and render ----------------------------------------------------------------------


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_chart_lints_without_warnings(value_set):
    report = helm.lint(str(CHART), values_of(value_set), strict=True, namespace=NAMESPACE)
    serious = [m for m in report["messages"] if m["severity"] >= 2]
    assert report["total_charts_linted"] == 1
    assert serious == [] and report["errors"] == []


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_values_file_renders_gateway_workers_and_policies(value_set):
    kinds = {d["kind"] for d in rendered(value_set)}
    assert {"Deployment", "Service", "NetworkPolicy", "Pod"} <= kinds
    names = {d["metadata"]["name"] for d in of_kind(value_set, "Deployment")}
    assert f"{RELEASE}-codereward-gateway" in names
    assert f"{RELEASE}-codereward-worker-python" in names


def test_values_schema_rejects_an_unknown_key():
    report = helm.lint(str(CHART), {"gateway": {"replicas": 3}}, strict=True)
    assert any("replicas" in e for e in report["errors"]), report


def test_values_schema_rejects_a_bad_queue_name():
    report = helm.lint(str(CHART), {"worker": {"queues": {"Py_thon": {}}}}, strict=True)
    assert report["errors"], report


def test_rendering_refuses_time_limits_that_do_not_nest():
    with pytest.raises(helm.HelmError, match="time limits must nest"):
        render_values({"config": {"taskSoftTimeLimitS": 400, "taskTimeLimitS": 330}})


def test_rendering_refuses_external_redis_without_its_network_location():
    with pytest.raises(helm.HelmError, match="networkPolicyPeers is required"):
        render_values({"redis": {"enabled": False, "external": {"host": "redis.example"}}})


def test_rendering_refuses_an_unmasked_proc_outside_a_pod_user_namespace():
    with pytest.raises(helm.HelmError, match="procMount Unmasked needs hostUsers false"):
        render_values({"worker": {"sandboxSecurity": {"hostUsers": True}}})


# -- schemas --------------------------------------------------------------------------------


@pytest.mark.parametrize("kube_version", KUBE_VERSIONS)
@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_manifests_validate_against_kubernetes_schemas(value_set, kube_version):
    checked = 0
    for doc in rendered(value_set):
        if doc["kind"] in KEDA_KINDS:
            continue  # a CRD: no Kubernetes schema; see the KEDA test below
        kubernetes_validate.validate(doc, kube_version, strict=True)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("value_set", ["keda-values", "external-redis-values"])
def test_keda_objects_match_the_keda_crd_fields(value_set):
    docs = [d for d in rendered(value_set) if d["kind"] in KEDA_KINDS]
    assert {d["kind"] for d in docs} == KEDA_KINDS
    for doc in docs:
        jsonschema.validate(doc, KEDA_SCHEMAS[doc["kind"]])
    for so in of_kind(value_set, "ScaledObject"):
        for trigger in so["spec"]["triggers"]:
            assert trigger["type"] == "redis"
            assert set(trigger["metadata"]) == set(REDIS_TRIGGER_METADATA)
            for key, form in REDIS_TRIGGER_METADATA.items():
                assert re.match(form, trigger["metadata"][key]), (key, trigger["metadata"][key])


def test_keda_scales_each_queue_on_its_own_redis_list():
    deployments = {
        d["metadata"]["name"]: d
        for d in of_kind("keda-values", "Deployment")
        if "-worker-" in d["metadata"]["name"]
    }
    assert len(deployments) == 6
    assert not [h for h in of_kind("keda-values", "HorizontalPodAutoscaler") if "worker" in str(h)]
    for so in of_kind("keda-values", "ScaledObject"):
        target = deployments.pop(so["spec"]["scaleTargetRef"]["name"])
        command = target["spec"]["template"]["spec"]["containers"][0]["command"]
        queues = command[command.index("--queues") + 1].split(",")
        assert [t["metadata"]["listName"] for t in so["spec"]["triggers"]] == queues
        auth = component("keda-values", "TriggerAuthentication", so["metadata"]["name"])
        (ref,) = auth["spec"]["secretTargetRef"]
        assert ref["parameter"] == "password"
        secret = component("keda-values", "Secret", ref["name"])
        assert ref["key"] in secret["data"]
    assert deployments == {}


# -- the sandbox's network and privileges ----------------------------------------------------


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_worker_pods_reach_nothing_but_redis(value_set):
    workers = [d for d in of_kind(value_set, "Deployment") if "-worker-" in d["metadata"]["name"]]
    assert workers
    for worker in workers:
        policies = policies_selecting(value_set, pod_labels(worker))
        assert len(policies) == 1, "NetworkPolicies add up: only one may select a worker"
        spec = policies[0]["spec"]
        assert sorted(spec["policyTypes"]) == ["Egress", "Ingress"]
        assert spec.get("ingress", []) == []
        assert_egress_only_redis(value_set, spec["egress"])


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_gateway_accepts_only_its_port_and_reaches_only_redis(value_set):
    gateway = component(value_set, "Deployment", f"{RELEASE}-codereward-gateway")
    (policy,) = policies_selecting(value_set, pod_labels(gateway))
    spec = policy["spec"]
    assert sorted(spec["policyTypes"]) == ["Egress", "Ingress"]
    (rule,) = spec["ingress"]
    assert rule["ports"] == [{"protocol": "TCP", "port": 8000}]
    assert_egress_only_redis(value_set, spec["egress"])


def test_in_chart_redis_is_reached_by_service_link_without_dns():
    for name in (f"{RELEASE}-codereward-gateway", f"{RELEASE}-codereward-worker-python"):
        spec = component("default", "Deployment", name)["spec"]["template"]["spec"]
        url = env_of(spec["containers"][0])["CODEREWARD_BROKER_URL"]
        assert spec["enableServiceLinks"] is True
        assert url == (
            "redis://:$(CODEREWARD_REDIS_PASSWORD)@$(REL_CODEREWARD_REDIS_SERVICE_HOST):6379/0"
        )
    assert component("default", "Service", f"{RELEASE}-codereward-redis")["spec"]["ports"] == [
        {"name": "redis", "port": 6379, "targetPort": "redis", "protocol": "TCP"}
    ]


def test_external_redis_given_by_ip_leaves_workers_without_dns():
    peers = [{"ipBlock": {"cidr": "10.20.0.5/32"}}]
    docs = render_values(
        {
            "redis": {
                "enabled": False,
                "external": {"host": "10.20.0.5", "networkPolicyPeers": peers},
            }
        }
    )
    (policy,) = [
        d
        for d in docs
        if d["kind"] == "NetworkPolicy" and d["metadata"]["name"].endswith("-worker")
    ]
    assert policy["spec"]["egress"] == [{"to": peers, "ports": [{"protocol": "TCP", "port": 6379}]}]


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_every_pod_is_selected_by_a_network_policy(value_set):
    for doc, _ in pod_specs(value_set):
        assert policies_selecting(value_set, pod_labels(doc)), doc["metadata"]["name"]


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_every_container_runs_non_root_read_only_without_capabilities(value_set):
    for doc, spec in pod_specs(value_set):
        assert spec["automountServiceAccountToken"] is False
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert not spec.get("hostNetwork") and not spec.get("hostPID") and not spec.get("hostIPC")
        for c in spec["containers"] + spec.get("initContainers", []):
            sc = c["securityContext"]
            assert sc["runAsNonRoot"] is True and sc["runAsUser"] >= 10000
            assert sc["readOnlyRootFilesystem"] is True
            assert sc["allowPrivilegeEscalation"] is False and sc["privileged"] is False
            assert sc["capabilities"] == {"drop": ["ALL"]}, doc["metadata"]["name"]


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_only_the_worker_leaves_the_runtime_default_seccomp_profile(value_set):
    for doc, spec in pod_specs(value_set):
        profile = spec["securityContext"]["seccompProfile"]["type"]
        if "-worker-" in doc["metadata"]["name"]:
            continue
        assert profile == "RuntimeDefault", doc["metadata"]["name"]


def test_default_workers_get_their_own_user_namespace_for_the_sandbox():
    workers = [d for d in of_kind("default", "Deployment") if "-worker-" in d["metadata"]["name"]]
    assert workers
    for worker in workers:
        spec = worker["spec"]["template"]["spec"]
        assert spec["hostUsers"] is False
        assert spec["containers"][0]["securityContext"]["procMount"] == "Unmasked"
        assert spec["securityContext"]["seccompProfile"] == {"type": "Unconfined"}
        assert env_of(spec["containers"][0])["CODEREWARD_SANDBOX"] == "process"


# -- language groups: the chart's queues are the service's ---------------------------------


def worker_groups(value_set: str) -> dict[str, tuple[list[str], dict[str, Any]]]:
    """Worker Deployment name: (the Celery queues it consumes, its pod spec)."""
    out = {}
    for d in of_kind(value_set, "Deployment"):
        if "-worker-" in d["metadata"]["name"]:
            spec = d["spec"]["template"]["spec"]
            command = spec["containers"][0]["command"]
            out[d["metadata"]["name"]] = (command[command.index("--queues") + 1].split(","), spec)
    return out


def test_default_workers_consume_every_queue_the_gateway_routes_to_once():
    from reward_api.service.broker import queue_for
    from reward_api.service.settings import ServiceSettings
    from reward_api.verify.languages import COMPILED

    routed = {queue_for(language) for language in ["python", "python3", *COMPILED]}
    consumed = [q for queues, _ in worker_groups("default").values() for q in queues]
    assert sorted(consumed) == sorted(routed)
    assert routed == set(ServiceSettings.model_fields["queues"].default.split(","))
    assert queue_for("c++") == "cpp" and queue_for("nodejs") == "javascript"


def test_each_language_group_stands_on_its_languages_root_from_its_sandbox_image():
    from reward_api.verify.languages import IMAGES, ROOT_DIRS, ROOT_OF

    compiled = 0
    for name, (queues, spec) in worker_groups("default").items():
        env = env_of(spec["containers"][0])
        if queues == ["python"]:
            assert "initContainers" not in spec and env["CODEREWARD_RUNTIME_ROOT"].endswith("py311")
            continue
        compiled += 1
        (root,) = {ROOT_OF[q] for q in queues}
        path = env[f"CODEREWARD_RUNTIME_ROOT_{root.upper()}"]
        assert path.endswith("/" + ROOT_DIRS[root]), name
        (init,) = spec["initContainers"]
        assert init["image"] in {IMAGES[q] for q in queues}, name
        (copy_to,) = init["volumeMounts"]
        (mount,) = [m for m in spec["containers"][0]["volumeMounts"] if m["mountPath"] == path]
        assert mount["name"] == copy_to["name"] and mount.get("readOnly") is True
        # the self-check (a Python sample) still finds Python's root in the service image
        assert env["CODEREWARD_RUNTIME_ROOT"].endswith("py311")
    assert compiled == 5


def _gib(quantity: str) -> float:
    units = {"Ki": 2**-20, "Mi": 2**-10, "Gi": 1, "Ti": 2**10}
    return float(quantity[:-2]) * units[quantity[-2:]]


def test_jvm_and_tsc_groups_get_more_memory_than_python():
    memory = {
        queues[0]: _gib(spec["containers"][0]["resources"]["requests"]["memory"])
        for queues, spec in worker_groups("default").values()
    }
    assert memory["java"] > memory["javascript"] > memory["python"]
    assert min(memory.values()) == memory["python"]


def test_a_group_of_languages_on_different_roots_is_refused():
    with pytest.raises(helm.HelmError, match="stand on different runtime roots"):
        render_values({"worker": {"queues": {"mixed": {"languages": ["c", "java"]}}}})


def test_a_group_may_be_removed_and_another_named_for_its_languages():
    docs = render_values({"worker": {"queues": {
        "node": None, "ts": {"languages": ["typescript"], "runtimeRoot": "/srv/node",
                             "runtimeImage": {"repository": "r/ts", "tag": "1"}}}}})  # fmt: skip
    names = {d["metadata"]["name"] for d in docs if d["kind"] == "Deployment"}
    assert f"{RELEASE}-codereward-worker-node" not in names
    (ts,) = [d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"].endswith("-ts")]
    container = ts["spec"]["template"]["spec"]["containers"][0]
    assert container["command"][container["command"].index("--queues") + 1] == "typescript"
    assert env_of(container)["CODEREWARD_RUNTIME_ROOT_NODE"] == "/srv/node"


def test_gvisor_values_put_workers_under_the_gvisor_runtime_class():
    workers = [
        d for d in of_kind("gvisor-values", "Deployment") if "-worker-" in d["metadata"]["name"]
    ]
    assert workers
    for worker in workers:
        spec = worker["spec"]["template"]["spec"]
        assert spec["runtimeClassName"] == "gvisor"
        assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}


@pytest.mark.parametrize("value_set", VALUE_SETS)
def test_worker_grace_period_outlasts_the_task_hard_time_limit(value_set):
    for doc, spec in pod_specs(value_set):
        if "-worker-" not in doc["metadata"]["name"]:
            continue
        limit = float(env_of(spec["containers"][0])["CODEREWARD_TASK_TIME_LIMIT_S"])
        assert spec["terminationGracePeriodSeconds"] > limit


# -- secrets, trainer, helm test -------------------------------------------------------------


def test_chart_made_secrets_are_random_not_from_values():
    first, second = render_values({}), render_values({})

    def secret_data(docs):
        return {d["metadata"]["name"]: d["data"] for d in docs if d["kind"] == "Secret"}

    a, b = secret_data(first), secret_data(second)
    assert set(a) == {f"{RELEASE}-codereward-api-keys", f"{RELEASE}-codereward-redis"}
    for name in a:
        assert a[name] != b[name], name


def test_existing_secrets_replace_the_chart_made_ones():
    assert of_kind("external-redis-values", "Secret") == []
    gateway = component("external-redis-values", "Deployment", f"{RELEASE}-codereward-gateway")
    env = env_of(gateway["spec"]["template"]["spec"]["containers"][0])
    assert env["CODEREWARD_API_KEYS"] == {
        "secretKeyRef": {"name": "codereward-api-keys", "key": "keys"}
    }
    assert env["CODEREWARD_BROKER_URL"].startswith(
        "rediss://:$(CODEREWARD_REDIS_PASSWORD)@redis.internal.example.com:6380/2"
    )


def test_a_single_gateway_gets_no_disruption_budget_that_would_block_drains():
    single = {"gateway": {"autoscaling": {"enabled": False}, "replicaCount": 1}}
    assert [d for d in render_values(single) if d["kind"] == "PodDisruptionBudget"] == []
    assert len(of_kind("default", "PodDisruptionBudget")) == 1


def test_trainer_is_off_by_default():
    assert of_kind("default", "Job") == []


def test_trainer_job_requests_gpus_on_gpu_nodes_and_calls_the_gateway():
    (job,) = of_kind("trainer-values", "Job")
    spec = job["spec"]["template"]["spec"]
    (c,) = spec["containers"]
    assert c["resources"]["limits"]["nvidia.com/gpu"] == 2
    assert spec["nodeSelector"] == {"nvidia.com/gpu.present": "true"}
    assert f'reward.url="http://{RELEASE}-codereward-gateway.{NAMESPACE}.svc:8000"' in c["args"]


def test_trainer_job_config_and_overrides_pass_the_trainers_own_validation(tmp_path):
    from trainer.config import load_config

    (job,) = of_kind("trainer-values", "Job")
    (config_map,) = of_kind("trainer-values", "ConfigMap")
    (tmp_path / "train.toml").write_text(config_map["data"]["train.toml"])
    (c,) = job["spec"]["template"]["spec"]["containers"]
    assert c["command"] == ["codereward", "train", "/config/train.toml"]
    args = [a.replace("$(CODEREWARD_API_KEY)", "k" * 32) for a in c["args"]]
    assert args[0::2] == ["--set"] * (len(args) // 2)
    cfg = load_config(tmp_path / "train.toml", args[1::2])
    assert cfg.reward.source == "http" and cfg.reward.api_key == "k" * 32
    assert cfg.reward.url == f"http://{RELEASE}-codereward-gateway.{NAMESPACE}.svc:8000"


def test_helm_test_hook_calls_healthz():
    hooks = [
        p
        for p in of_kind("default", "Pod")
        if p["metadata"]["annotations"]["helm.sh/hook"] == "test"
    ]
    commands = [" ".join(p["spec"]["containers"][0]["command"]) for p in hooks]
    assert any(f"http://{RELEASE}-codereward-gateway:8000/healthz" in c for c in commands)


def test_helm_test_pods_pass_against_a_real_gateway(tmp_path):
    """The two `helm test` scripts, run here against `codereward serve` (embedded mode)."""
    key = "helm-test-key-" + "x" * 24
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEREWARD_")}
    env.update(
        CODEREWARD_API_KEYS=key,
        CODEREWARD_WORKERS="1",
        CODEREWARD_RUNTIME_ROOT=os.environ.get(
            "CODEREWARD_RUNTIME_ROOT", "/var/lib/codereward/runtime/bookworm-py311"
        ),
        PYTHONPATH=str(ROOT),
    )
    argv = [sys.executable, "-m", "reward_api.service.cli", "serve", "--port", str(port)]
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(argv, env=env, stdout=log, stderr=log, start_new_session=True)
    local = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(local + "/healthz", timeout=1):
                    break
            except OSError:
                assert server.poll() is None, (tmp_path / "serve.log").read_text()
                assert time.monotonic() < deadline, "codereward serve did not come up"
                time.sleep(0.3)
        pods = [
            p for p in of_kind("default", "Pod") if "helm.sh/hook" in p["metadata"]["annotations"]
        ]
        assert len(pods) == 2
        for pod in pods:
            (c,) = pod["spec"]["containers"]
            assert c["command"][:2] == ["python", "-c"]
            script = c["command"][2].replace(f"http://{RELEASE}-codereward-gateway:8000", local)
            run = subprocess.run(
                [sys.executable, "-c", script],
                env={**env, "CODEREWARD_API_KEYS": key},
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert run.returncode == 0, (pod["metadata"]["name"], run.stdout, run.stderr)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
        log.close()


def test_every_value_has_a_param_comment():
    text = (CHART / "values.yaml").read_text()
    params = set(re.findall(r"^\s*## @param (\S+) \S", text, flags=re.M))
    missing = []

    def walk(node, prefix):
        for key, value in node.items():
            path = f"{prefix}{key}"
            if path in params:
                continue
            if isinstance(value, dict) and value:
                walk(value, path + ".")
            else:
                missing.append(path)

    walk(yaml.safe_load(text), "")
    assert missing == []


# -- checkov ----------------------------------------------------------------------------------


@functools.cache
def checkov_report() -> dict[str, Any]:
    """checkov's kubernetes report over every rendering, run offline."""
    assert CHECKOV.exists(), f"checkov is not installed at {CHECKOV}: run 'make chart-tools'"
    with tempfile.TemporaryDirectory(prefix="codereward-chart-") as tmp:
        for value_set in VALUE_SETS:
            (Path(tmp) / value_set).mkdir()
            for i, doc in enumerate(rendered(value_set)):
                path = Path(tmp) / scanned_file(value_set, i, doc).lstrip("/")
                path.write_text(yaml.safe_dump(doc))
        # --skip-download keeps it from the vendor's API; the proxy pins anything else that
        # might try the network to a closed local port.
        proxy = "http://127.0.0.1:9"
        env = {
            **os.environ,
            "BC_SKIP_MAPPING": "TRUE",
            "CKV_SKIP_PACKAGE_UPDATE_CHECK": "TRUE",
            "CKV_CACHE_DIR": str(Path(tmp) / ".cache"),
            "HTTPS_PROXY": proxy,
            "HTTP_PROXY": proxy,
            "https_proxy": proxy,
            "http_proxy": proxy,
            "NO_PROXY": "",
            "no_proxy": "",
        }
        proc = subprocess.run(
            [str(CHECKOV), "-d", tmp, "--framework", "kubernetes", "--skip-download",
             "--compact", "-o", "json"],
            capture_output=True, text=True, env=env, timeout=300, cwd=tmp,
        )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    (report,) = report if isinstance(report, list) else [report]
    assert report["check_type"] == "kubernetes"
    return report


def justified_checks() -> set[str]:
    """Check ids in the README's table of justified checkov findings."""
    text = README.read_text()
    section = text.split("## Justified checkov findings", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(CKV2?_K8S_\d+)` \|", section, flags=re.M))


def scanned_file(value_set: str, index: int, doc: dict[str, Any]) -> str:
    return f"/{value_set}/{index:02d}-{doc['kind']}.yaml"


def test_checkov_scans_every_manifest_that_runs_a_pod():
    report = checkov_report()
    results = report["results"]
    seen = {
        r["file_path"]
        for r in results["passed_checks"] + results["failed_checks"] + results["skipped_checks"]
    }
    expected = {
        scanned_file(v, i, d)
        for v in VALUE_SETS
        for i, d in enumerate(rendered(v))
        if d["kind"] in ("Pod", "Deployment", "StatefulSet", "Job")
    }
    assert report["summary"]["parsing_errors"] == 0
    assert len(expected) > 20
    assert expected <= seen, expected - seen


def test_checkov_finds_no_failed_check():
    failed = [
        f"{f['check_id']} {f['resource']} ({f['file_path']}): {f['check_name']}"
        for f in checkov_report()["results"]["failed_checks"]
    ]
    assert failed == []


def test_every_checkov_suppression_is_justified_in_the_chart_readme():
    skipped = checkov_report()["results"]["skipped_checks"]
    assert skipped, "the worker's seccomp suppression at least is expected"
    for s in skipped:
        assert s["check_result"]["suppress_comment"].strip(), s["check_id"]
    ids = {s["check_id"] for s in skipped}
    assert ids <= justified_checks(), ids - justified_checks()


@pytest.mark.parametrize("persistence", [True, False])
def test_redis_keeps_an_append_only_file_with_or_without_a_volume(persistence: bool) -> None:
    """Issue 14: a Redis restart loses nothing; an emptyDir outlives a container restart."""
    docs = render_values({"redis": {"persistence": {"enabled": persistence}}})
    (sts,) = [d for d in docs if d["kind"] == "StatefulSet"]
    script = sts["spec"]["template"]["spec"]["containers"][0]["command"][-1]
    assert "appendonly yes" in script and "appendfsync everysec" in script


def test_workers_get_a_short_renewed_lease() -> None:
    for _, spec in worker_groups("default").values():
        env = env_of(spec["containers"][0])
        assert float(env["CODEREWARD_VISIBILITY_TIMEOUT_S"]) <= 120
        assert 3 * float(env["CODEREWARD_LEASE_RENEW_S"]) <= float(
            env["CODEREWARD_VISIBILITY_TIMEOUT_S"]
        )
    with pytest.raises(helm.HelmError, match="at most a third"):
        render_values({"config": {"leaseRenewS": 30}})
