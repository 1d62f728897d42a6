{{/* The chart's name, or nameOverride. */}}
{{- define "nodewright.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Object names: fullnameOverride, else the release name (with the chart's when it lacks it). */}}
{{- define "nodewright.fullname" -}}
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

{{- define "nodewright.selectorLabels" -}}
app.kubernetes.io/name: {{ include "nodewright.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "nodewright.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "nodewright.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "nodewright.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "nodewright.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The provider, checked: the ClusterRole's NodeClass rules and --provider depend on it. */}}
{{- define "nodewright.provider" -}}
{{- $p := required "provider is required: kwok, aws, azure or gcp (see values-<provider>.yaml)" .Values.provider }}
{{- if not (has $p (list "kwok" "aws" "azure" "gcp")) }}
{{- fail (printf "provider must be kwok, aws, azure or gcp, not %q" $p) }}
{{- end }}
{{- $p }}
{{- end }}

{{- define "nodewright.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/* NODEWRIGHT_SETTING_<KEY> for a provider setting key (camelCase -> upper snake case). */}}
{{- define "nodewright.settingEnv" -}}
{{- printf "NODEWRIGHT_SETTING_%s" (. | snakecase | upper) }}
{{- end }}

{{/*
Provider settings that hold secrets: the kubelet expands $(VAR) into the command line, where
any process on the node can read it. The SDKs read credentials from the environment or
workload identity instead (extraEnv from a Secret, or workloadIdentity).
*/}}
{{- define "nodewright.checkSettings" -}}
{{- range $key, $_ := .Values.providerSettings }}
{{- if has $key (list "accessKeyId" "secretAccessKey" "sessionToken" "staticAccessToken") }}
{{- fail (printf "providerSettings.%s would put a credential on the command line: use workloadIdentity, or extraEnv from a Secret (e.g. AWS_ACCESS_KEY_ID)" $key) }}
{{- end }}
{{- end }}
{{- end }}
