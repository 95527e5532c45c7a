#!/usr/bin/env bash
# Fuzzes every operation of the running api from its OpenAPI document with schemathesis
# (property-based, https://schemathesis.readthedocs.io): once with a valid API key, once
# without. Checks: not_a_server_error (no 5xx), status_code_conformance (every status is
# documented) and response_schema_conformance (every answer matches its documented schema, so
# a 4xx carries the error body {code, message, request_id}).
# Starts nothing: expects the api at $TIERWISE_API_URL and a tenant key in $TIERWISE_FUZZ_API_KEY.
# With $TIERWISE_FUZZ_VOLUME_ID (a volume of that tenant with a recommendation), the keyed pass
# fills every {volumeId} with it, so the fuzzed bodies of apply, dismiss and policy reach the
# logic behind the 404 (the tenancy suite covers unknown ids).
# Bounded: $TIERWISE_FUZZ_MAX_EXAMPLES (default 50) cases per operation and phase, one worker;
# the seed ($TIERWISE_FUZZ_SEED, random by default) is printed so a failure can be replayed.
# Installs schemathesis into .local/tools/schemathesis-venv when missing (PyPI, pinned).
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
venv=$root/.local/tools/schemathesis-venv

: "${TIERWISE_API_URL:?TIERWISE_API_URL must name the running api, e.g. http://127.0.0.1:8080}"
: "${TIERWISE_FUZZ_API_KEY:?TIERWISE_FUZZ_API_KEY must be an API key of a tenant of that api}"
max_examples=${TIERWISE_FUZZ_MAX_EXAMPLES:-50}
seed=${TIERWISE_FUZZ_SEED:-$(( (RANDOM << 15) | RANDOM ))}

if [ "$("$venv/bin/schemathesis" --version 2>/dev/null | grep -o '[0-9][0-9.]*$')" != "$SCHEMATHESIS_VERSION" ]; then
  echo "fuzz: installing schemathesis==$SCHEMATHESIS_VERSION into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# schemathesis keeps a crash cache (.schemathesis/) in its working directory: a throwaway one,
# so no run replays another's failures and nothing lands in the checkout.
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
cd "$workdir"

config=$workdir/schemathesis.toml
if [ -n "${TIERWISE_FUZZ_VOLUME_ID:-}" ]; then
  printf '[parameters]\n"path.volumeId" = "%s"\n' "$TIERWISE_FUZZ_VOLUME_ID" > "$config"
else
  : > "$config"
fi

fuzz() {
  "$venv/bin/schemathesis" --config-file "$config" run "$TIERWISE_API_URL/openapi.json" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance \
    --max-examples "$max_examples" --seed "$seed" --workers 1 \
    --generation-database none --no-color --request-timeout 10 "$@"
}

echo "fuzz: seed $seed, max $max_examples examples per operation (replay: TIERWISE_FUZZ_SEED=$seed)"
echo "fuzz: with a valid read-write API key"
fuzz --phases examples,coverage,fuzzing --header "Authorization: Bearer $TIERWISE_FUZZ_API_KEY"
echo "fuzz: without an API key (every operation must answer 401 with the error body; no random phase)"
: > "$config"
fuzz --phases examples,coverage
