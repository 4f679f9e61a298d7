{{/*
Names, labels, images, and the pieces every component shares: the broker environment,
the Redis endpoint, the NetworkPolicy peers of Redis and DNS.
*/}}

{{- define "codereward.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "codereward.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* "<fullname>-<component>", cut to a DNS label. Call with (list $ "gateway"). */}}
{{- define "codereward.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "codereward.fullname" $root | trunc 40 | trimSuffix "-") (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "codereward.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels of one component. Call with (list $ "gateway"). */}}
{{- define "codereward.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "codereward.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* All labels of one component. Call with (list $ "gateway"). */}}
{{- define "codereward.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ include "codereward.chart" $root }}
{{ include "codereward.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: codereward
{{- with $root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* An image reference from {repository, tag, digest}. Call with (list $ .Values.image). */}}
{{- define "codereward.image" -}}
{{- $root := index . 0 }}
{{- $img := index . 1 }}
{{- if $img.digest }}
{{- printf "%s@%s" $img.repository $img.digest }}
{{- else }}
{{- printf "%s:%s" $img.repository (default $root.Chart.AppVersion $img.tag) }}
{{- end }}
{{- end }}

{{- define "codereward.serviceAccountName" -}}
{{- $root := index . 0 }}
{{- if $root.Values.serviceAccount.create }}
{{- include "codereward.componentName" . }}
{{- else }}
{{- "default" }}
{{- end }}
{{- end }}

{{/* The Secret and key holding the comma-separated API keys. */}}
{{- define "codereward.apiKeysSecretName" -}}
{{- default (include "codereward.componentName" (list . "api-keys")) .Values.apiKeys.existingSecret }}
{{- end }}

{{/* Redis endpoint: the in-chart StatefulSet or redis.external. */}}
{{- define "codereward.redisHost" -}}
{{- if .Values.redis.enabled }}
{{- printf "%s.%s.svc" (include "codereward.componentName" (list . "redis")) .Release.Namespace }}
{{- else }}
{{- required "redis.external.host is required when redis.enabled is false" .Values.redis.external.host }}
{{- end }}
{{- end }}

{{/*
The Redis host as the gateway and the workers see it. The in-chart Redis is reached by
the Service IP that Kubernetes injects as <SERVICE>_SERVICE_HOST (service links, expanded
by $(VAR) in the pod), so these pods need no DNS and their NetworkPolicies allow none. An
external Redis given by name needs the cluster DNS.
*/}}
{{- define "codereward.brokerHost" -}}
{{- if .Values.redis.enabled }}
{{- printf "$(%s_SERVICE_HOST)" (include "codereward.componentName" (list . "redis") | upper | replace "-" "_") }}
{{- else }}
{{- include "codereward.redisHost" . }}
{{- end }}
{{- end }}

{{/* "true" when the gateway and the workers must resolve a name to reach Redis. */}}
{{- define "codereward.brokerNeedsDNS" -}}
{{- if and (not .Values.redis.enabled) (not (regexMatch "^[0-9.]+$|:" .Values.redis.external.host)) }}true{{ end }}
{{- end }}

{{- define "codereward.redisPort" -}}
{{- if .Values.redis.enabled }}{{ .Values.redis.port }}{{ else }}{{ .Values.redis.external.port }}{{ end }}
{{- end }}

{{- define "codereward.redisDatabase" -}}
{{- if .Values.redis.enabled }}{{ .Values.redis.database }}{{ else }}{{ .Values.redis.external.database }}{{ end }}
{{- end }}

{{- define "codereward.redisTLS" -}}
{{- if and (not .Values.redis.enabled) .Values.redis.external.tls }}true{{ else }}false{{ end }}
{{- end }}

{{/* Secret name holding the Redis password; empty when the external Redis has none. */}}
{{- define "codereward.redisSecretName" -}}
{{- if .Values.redis.enabled }}
{{- default (include "codereward.componentName" (list . "redis")) .Values.redis.auth.existingSecret }}
{{- else }}
{{- .Values.redis.external.existingSecret }}
{{- end }}
{{- end }}

{{- define "codereward.redisSecretKey" -}}
{{- if .Values.redis.enabled }}{{ .Values.redis.auth.existingSecretPasswordKey }}{{ else }}{{ .Values.redis.external.existingSecretPasswordKey }}{{ end }}
{{- end }}

{{/*
Environment of every process that talks to Redis: the password from its Secret, then the
broker URL assembled from it by Kubernetes' $(VAR) expansion, so the URL never sits in a
manifest. A generated password is alphanumeric and needs no URL escaping; an
existingSecret's password must be URL-safe.
*/}}
{{- define "codereward.brokerEnv" -}}
{{- $secret := include "codereward.redisSecretName" . }}
{{- $scheme := ternary "rediss" "redis" (eq (include "codereward.redisTLS" .) "true") }}
{{- $hostport := printf "%s:%s/%s" (include "codereward.brokerHost" .) (include "codereward.redisPort" .) (include "codereward.redisDatabase" .) }}
{{- if $secret -}}
- name: CODEREWARD_REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ include "codereward.redisSecretKey" . }}
- name: CODEREWARD_BROKER_URL
  value: {{ printf "%s://:$(CODEREWARD_REDIS_PASSWORD)@%s" $scheme $hostport | quote }}
{{- else -}}
- name: CODEREWARD_BROKER_URL
  value: {{ printf "%s://%s" $scheme $hostport | quote }}
{{- end }}
{{- end }}

{{/* Environment shared by the gateway and the workers (the API keys are the gateway's alone). */}}
{{- define "codereward.serviceEnv" -}}
{{- $c := .Values.config }}
{{- if not (lt (float64 $c.taskSoftTimeLimitS) (float64 $c.taskTimeLimitS)) }}
{{- fail "config: time limits must nest: taskSoftTimeLimitS < taskTimeLimitS" }}
{{- end -}}
{{- if gt (mulf 3 (float64 $c.leaseRenewS)) (float64 $c.visibilityTimeoutS) }}
{{- fail "config: leaseRenewS must be at most a third of visibilityTimeoutS" }}
{{- end -}}
{{ include "codereward.brokerEnv" . }}
- name: CODEREWARD_TASK_SOFT_TIME_LIMIT_S
  value: {{ $c.taskSoftTimeLimitS | quote }}
- name: CODEREWARD_TASK_TIME_LIMIT_S
  value: {{ $c.taskTimeLimitS | quote }}
- name: CODEREWARD_VISIBILITY_TIMEOUT_S
  value: {{ $c.visibilityTimeoutS | quote }}
- name: CODEREWARD_LEASE_RENEW_S
  value: {{ $c.leaseRenewS | quote }}
- name: HOME
  value: /tmp
- name: PYTHONDONTWRITEBYTECODE
  value: "1"
{{- range $name, $value := $c.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}

{{/* NetworkPolicy peers where Redis lives. */}}
{{- define "codereward.redisPeers" -}}
{{- if .Values.redis.enabled }}
- podSelector:
    matchLabels:
      {{- include "codereward.selectorLabels" (list . "redis") | nindent 6 }}
{{- else }}
{{- if not .Values.redis.external.networkPolicyPeers }}
{{- fail "redis.external.networkPolicyPeers is required while networkPolicy.enabled: the workers may reach nothing but Redis, so say where it is (an ipBlock)" }}
{{- end }}
{{- toYaml .Values.redis.external.networkPolicyPeers }}
{{- end }}
{{- end }}

{{/* Egress rule to Redis. */}}
{{- define "codereward.redisEgress" -}}
- to:
    {{- include "codereward.redisPeers" . | nindent 4 }}
  ports:
    - protocol: TCP
      port: {{ include "codereward.redisPort" . }}
{{- end }}

{{- define "codereward.dnsEgress" -}}
- to:
    - namespaceSelector:
        {{- toYaml .Values.networkPolicy.dns.namespaceSelector | nindent 8 }}
      podSelector:
        {{- toYaml .Values.networkPolicy.dns.podSelector | nindent 8 }}
  ports:
    - protocol: UDP
      port: 53
    - protocol: TCP
      port: 53
{{- end }}

{{/*
A Secret value that survives upgrades: the live Secret's value when there is one (lookup
returns nothing under `helm template`), else random. Call with (list $ name key length).
*/}}
{{- define "codereward.persistentRandom" -}}
{{- $root := index . 0 }}
{{- $live := lookup "v1" "Secret" $root.Release.Namespace (index . 1) }}
{{- if and $live (hasKey $live.data (index . 2)) }}
{{- index $live.data (index . 2) }}
{{- else }}
{{- randAlphaNum (index . 3) | b64enc }}
{{- end }}
{{- end }}

{{/*
checkov suppressions of an image reference, each with its reason (the README lists them).
Call with (list imageValues "what the image is").
*/}}
{{- define "codereward.imageSkips" -}}
{{- $img := index . 0 }}
{{- if not $img.digest }}
checkov.io/skip-digest: CKV_K8S_43={{ index . 1 }} is pinned by tag unless its image.digest value is set; set the digest in production
{{- if ne $img.pullPolicy "Always" }}
checkov.io/skip-pull: CKV_K8S_15=release tags are immutable, so IfNotPresent re-uses a node's copy; set pullPolicy Always (or a digest) on clusters shared with untrusted tenants
{{- end }}
{{- end }}
{{- end }}
