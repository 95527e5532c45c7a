#!/usr/bin/env bash
# Unpacks the OTLP .proto files (io.opentelemetry.proto:opentelemetry-proto, version in
# proto/pom.xml) into proto/gen/otlp/ with maven-dependency-plugin 3.8.1 (see pom.xml).
# Skips Maven when gen/otlp already holds this version (warm builds stay fast).
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's:.*<otlp.proto.version>\(.*\)</otlp.proto.version>.*:\1:p' pom.xml)
if [[ -z "$version" ]]; then
  echo "unpack-otlp: no <otlp.proto.version> in proto/pom.xml" >&2
  exit 1
fi
stamp=gen/otlp/.version
entry=gen/otlp/opentelemetry/proto/collector/metrics/v1/metrics_service.proto

if [[ -f "$entry" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
  exit 0
fi
rm -rf gen/otlp gen/.markers
mvn -q -B -Dstyle.color=never generate-sources
if [[ ! -f "$entry" ]]; then
  echo "unpack-otlp: $entry missing after unpacking opentelemetry-proto $version" >&2
  exit 1
fi
echo "$version" > "$stamp"
echo "unpack-otlp: opentelemetry-proto $version -> proto/gen/otlp"
