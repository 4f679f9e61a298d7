{{/*
Settings of one language queue: worker.* defaults overlaid by worker.queues.<name>.
Call with (list $ name overrides); returns YAML, read back with fromYaml.
*/}}
{{- define "codereward.workerQueue" -}}
{{- $root := index . 0 }}
{{- $w := $root.Values.worker }}
{{- $a := $w.autoscaling }}
{{- $defaults := dict "replicaCount" $w.replicaCount "concurrency" $w.concurrency "sandboxSlots" $w.sandboxSlots "runtimeRoot" $w.runtimeRoot "resources" (deepCopy $w.resources) "minReplicas" $a.minReplicas "maxReplicas" $a.maxReplicas "listLength" $a.keda.listLength }}
{{- $q := merge (deepCopy (default (dict) (index . 2))) $defaults }}
{{- $_ := set $q "name" (index . 1) }}
{{- $_ := set $q "fullname" (include "codereward.componentName" (list $root (printf "worker-%s" (index . 1)))) }}
{{- toYaml $q }}
{{- end }}
