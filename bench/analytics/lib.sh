# Shared by run.sh and recommendation-step.sh (sourced): the paths, the stream-jobs jar and test
# classes built when missing, a work directory removed on exit, and the agent's sampler.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
traces="${TIERWISE_TRACES_DIR:-$root/../shared/traces}"
trace="$traces/cloudphysics_w_sample.vscsi"
agent="$root/edge-agent/build/tierwise-agent"
jobs="$root/stream-jobs"
cp="$jobs/target/tierwise-stream-jobs.jar:$jobs/target/test-classes"

[[ -x "$agent" ]] || { echo "bench: $agent missing (npm run -w @tierwise/edge-agent build)" >&2; exit 1; }
[[ -f "$jobs/target/tierwise-stream-jobs.jar" ]] || (cd "$jobs" && mvn -q -B package -DskipTests)
[[ -d "$jobs/target/test-classes/io/tierwise/jobs/testing" ]] || (cd "$jobs" && mvn -q -B test-compile)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# sample_refs TRACE OUT: the agent's own sampler with its defaults (initial rate 1, sample bounded
# at 10,923 blocks) under a random key.
sample_refs() {
  "$agent" sample-refs "$1" --key "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" --out "$2" >&2
}
