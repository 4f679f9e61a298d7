{{/*
Settings of one worker group: worker.* defaults overlaid by worker.queues.<name>; its
`languages` (default: the group's name) are the Celery queues it consumes, and must stand
on one runtime root, whose CODEREWARD_RUNTIME_ROOT* variable is `rootEnv`.
Call with (list $ name overrides); returns YAML, read back with fromYaml.
*/}}
{{- define "codereward.workerQueue" -}}
{{- $root := index . 0 }}
{{- $w := $root.Values.worker }}
{{- $a := $w.autoscaling }}
{{- $defaults := dict "replicaCount" $w.replicaCount "concurrency" $w.concurrency "sandboxSlots" $w.sandboxSlots "runtimeRoot" $w.runtimeRoot "runtimeImage" (deepCopy $w.runtimeImage) "runtimeSizeLimit" $w.runtimeSizeLimit "resources" (deepCopy $w.resources) "minReplicas" $a.minReplicas "maxReplicas" $a.maxReplicas "listLength" $a.keda.listLength "languages" (list (index . 1)) }}
{{- $q := merge (deepCopy (default (dict) (index . 2))) $defaults }}
{{- $_ := set $q "name" (index . 1) }}
{{- /* the runtime root each language's cells stand on (reward_api.verify.languages.ROOT_OF) */}}
{{- $rootOf := dict "python" "" "c" "CPP" "cpp" "CPP" "java" "JAVA" "javascript" "NODE" "typescript" "NODE" "go" "GO" "rust" "RUST" }}
{{- $roots := list }}
{{- range $q.languages }}
{{- if not (hasKey $rootOf .) }}
{{- fail (printf "worker.queues.%s: no language %q (python, c, cpp, java, javascript, typescript, go, rust)" (index $ 1) .) }}
{{- end }}
{{- $roots = append $roots (get $rootOf .) | uniq }}
{{- end }}
{{- if gt (len $roots) 1 }}
{{- fail (printf "worker.queues.%s: languages %s stand on different runtime roots; give each root its own group" (index . 1) (join ", " $q.languages)) }}
{{- end }}
{{- $_ := set $q "rootEnv" (ternary "CODEREWARD_RUNTIME_ROOT" (printf "CODEREWARD_RUNTIME_ROOT_%s" (first $roots)) (eq (first $roots) "")) }}
{{- $_ := set $q "fullname" (include "codereward.componentName" (list $root (printf "worker-%s" (index . 1)))) }}
{{- toYaml $q }}
{{- end }}
