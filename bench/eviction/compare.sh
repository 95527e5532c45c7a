#!/usr/bin/env bash
# Hit ratio of the eviction policies (LRU, S3-FIFO, ARC, 2Q) on every real trace
# in the traces folder, through the real cache engine: `tierwise-agent replay
# --dry-run` (io_uring datastore files + RAM tier, queue depth 32), sequential
# cut-off off, one tier per volume of 1, 5, 10, 25 and 50 % of the trace's
# working set (distinct 4 KiB blocks; per volume: the trace's distinct blocks
# divided by its volumes). Prints a Markdown table, the mean hit ratio and the
# wins of each policy, then the default policy with the 4 MiB cut-off, and the
# time taken.
#
# Peer: with LIBCACHESIM_CACHESIM=<path to libCacheSim's cachesim binary>
# (built outside this repository), the same block reference stream of the
# CloudPhysics trace (`tierwise-agent block-refs`) goes through libCacheSim's
# LRU, S3FIFO, ARC and TwoQ at the same sizes, beside the engine's figures.
#
# Environment: TIERWISE_TRACES_DIR (default ../shared/traces), TIERWISE_AGENT
# (default edge-agent/build/tierwise-agent), EVICTION_FRACTIONS, EVICTION_POLICIES,
# EVICTION_QUEUE_DEPTH, EVICTION_SCRATCH (default /dev/shm: the datastore files).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
agent=${TIERWISE_AGENT:-$root/edge-agent/build/tierwise-agent}
traces_dir=${TIERWISE_TRACES_DIR:-$root/../shared/traces}
read -r -a fractions <<< "${EVICTION_FRACTIONS:-0.01 0.05 0.10 0.25 0.50}"
read -r -a policies <<< "${EVICTION_POLICIES:-lru s3fifo arc 2q sieve}"
queue_depth=${EVICTION_QUEUE_DEPTH:-32}
cachesim=${LIBCACHESIM_CACHESIM:-}
cross_check_trace=cloudphysics_w_sample.vscsi

[[ -x $agent ]] || { echo "compare.sh: $agent not built (npm run build -w @tierwise/edge-agent)" >&2; exit 1; }
[[ -d $traces_dir ]] || { echo "compare.sh: traces folder $traces_dir not found" >&2; exit 1; }
command -v jq > /dev/null || { echo "compare.sh: jq is required" >&2; exit 1; }
scratch_base=${EVICTION_SCRATCH:-/dev/shm}
[[ -d $scratch_base ]] || scratch_base=${TMPDIR:-/tmp}
work=$(mktemp -d "$scratch_base/tierwise-eviction.XXXXXX")
trap 'rm -rf "$work"' EXIT

default_policy=$("$agent" replay --help | sed -n 's/.*--eviction TEXT:{[^}]*}=\([a-z0-9]*\).*/\1/p')
[[ -n $default_policy ]] || default_policy=unknown
started=$(date +%s)

# hit_ratio TRACE TIER_BYTES POLICY CUTOFF: hits / (hits + misses) of one replay.
hit_ratio() {
  rm -rf "$work/datastore"
  "$agent" replay --dry-run --key-file "$work/agent.key" --datastore-dir "$work/datastore" \
    --queue-depth "$queue_depth" --tier-size "$2" --eviction "$3" --sequential-cutoff "$4" \
    --json-summary "$work/summary.json" "$1" > /dev/null 2> "$work/replay.err" || {
      echo "compare.sh: replay of $1 failed:" >&2; cat "$work/replay.err" >&2; exit 1; }
  jq -r '.traces[0] | "\(.hits) \(.misses)"' "$work/summary.json" |
    awk '{ printf "%.4f\n", $1 / ($1 + $2) }'
}

declare -A sum wins engine
cells=0
header="| trace | volumes | working set per volume | fraction | tier per volume |"
rule="|---|---:|---:|---:|---:|"
for p in "${policies[@]}"; do header+=" $p |"; rule+="---:|"; sum[$p]=0; wins[$p]=0; done
echo "Eviction policies through the engine (queue depth $queue_depth, sequential cut-off off); hit ratio over 4 KiB blocks"
echo
echo "$header best |"
echo "$rule---|"
cutoff_rows=()
for trace in "$traces_dir"/*; do
  [[ -f $trace && $trace != *.md ]] || continue
  name=$(basename "$trace")
  if ! "$agent" inspect --json "$trace" > "$work/inspect.json" 2> "$work/inspect.err"; then
    echo "| $name | skipped, the agent does not read it: $(head -n 1 "$work/inspect.err" |
      sed -E 's/^tierwise-agent: [^:]*: //; s/ \(first line.*//' | tr '|' ' ') |"
    continue
  fi
  volumes=$(jq -r '.volume_count' "$work/inspect.json")
  ws_blocks=$(jq -r '.distinct_blocks / .volume_count | floor' "$work/inspect.json")
  for f in "${fractions[@]}"; do
    tier_blocks=$(awk -v w="$ws_blocks" -v f="$f" 'BEGIN { b = int(w * f); print (b < 1 ? 1 : b) }')
    tier_bytes=$((tier_blocks * 4096))
    row="| $name | $volumes | $((ws_blocks * 4096 / 1024)) KiB | $f | $((tier_bytes / 1024)) KiB |"
    best=""; best_ratio=-1
    for p in "${policies[@]}"; do
      r=$(hit_ratio "$trace" "$tier_bytes" "$p" off)
      engine[$name,$f,$p]=$r
      row+=" $r |"
      sum[$p]=$(awk -v a="${sum[$p]}" -v b="$r" 'BEGIN { print a + b }')
      if awk -v a="$r" -v b="$best_ratio" 'BEGIN { exit !(a > b + 0.00005) }'; then
        best=$p; best_ratio=$r
      elif awk -v a="$r" -v b="$best_ratio" 'BEGIN { exit !(a >= b - 0.00005) }'; then
        best+=" $p"
      fi
    done
    for p in $best; do wins[$p]=$((wins[$p] + 1)); done
    cells=$((cells + 1))
    echo "$row $best |"
    with_cutoff=$(hit_ratio "$trace" "$tier_bytes" "$default_policy" 4MiB)
    cutoff_rows+=("| $name | $f | ${engine[$name,$f,$default_policy]} | $with_cutoff |")
  done
done

echo
echo "| policy | mean hit ratio ($cells cells) | best or tied-best in |"
echo "|---|---:|---:|"
for p in "${policies[@]}"; do
  echo "| $p | $(awk -v s="${sum[$p]}" -v n="$cells" 'BEGIN { printf "%.4f", s / n }') | ${wins[$p]} |"
done

echo
echo "Default policy ($default_policy) without and with the 4 MiB sequential cut-off"
echo
echo "| trace | fraction | cut-off off | cut-off 4 MiB |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${cutoff_rows[@]}"

if [[ -n $cachesim ]]; then
  echo
  echo "Peer: libCacheSim ($cachesim) on the block references of $cross_check_trace (hit ratio = 1 - its miss ratio)"
  echo
  "$agent" block-refs "$traces_dir/$cross_check_trace" > "$work/blocks.txt"
  declare -A peer_name=([lru]=LRU [s3fifo]=S3FIFO [arc]=ARC [2q]=TwoQ [sieve]=Sieve)
  algos=""; for p in "${policies[@]}"; do algos+="${algos:+,}${peer_name[$p]}"; done
  sizes=$(IFS=,; echo "${fractions[*]}")
  (cd "$work" && "$cachesim" blocks.txt txt "$algos" "$sizes" --ignore-obj-size 1 --num-thread 2 \
     > peer.out 2> peer.err) || { echo "compare.sh: cachesim failed:" >&2; cat "$work/peer.err" >&2; exit 1; }
  echo "| policy | fraction | cache blocks | engine | libCacheSim | difference |"
  echo "|---|---:|---:|---:|---:|---:|"
  for p in "${policies[@]}"; do
    i=0
    # cachesim prints the sizes of one algorithm in increasing order, as given.
    while read -r blocks miss; do
      f=${fractions[$i]}; i=$((i + 1))
      e=${engine[$cross_check_trace,$f,$p]:-}
      peer=$(awk -v m="$miss" 'BEGIN { printf "%.4f", 1 - m }')
      diff=$([[ -n $e ]] && awk -v a="$e" -v b="$peer" 'BEGIN { printf "%+.4f", a - b }' || echo "n/a")
      echo "| $p | $f | $blocks | ${e:-n/a} | $peer | $diff |"
    done < <(grep -E "^result/.* ${peer_name[$p]}(-[0-9.]+-[0-9]+)? cache size" "$work/peer.out" |
             sed -E 's/.*cache size +([0-9]+),.*miss ratio ([0-9.]+),.*/\1 \2/')
  done
else
  echo
  echo "Peer skipped: set LIBCACHESIM_CACHESIM to libCacheSim's cachesim binary to cross-check."
fi

echo
echo "Time: $(( $(date +%s) - started )) s"
