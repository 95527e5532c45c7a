#!/usr/bin/env bash
# The rollup rows' JSON documents (latency, sources, workload, cpu) of the real agent's intervals
# for a real trace, then an MRC row's (RowDocumentsBench.java): written straight to text by Json,
# against built as a Jackson tree first and then written (JsonTrees, as before), paired rounds in
# one JVM. Figures go to stdout.
#
# Usage: bench/analytics/row-documents.sh [TRACE]   (default: the CloudPhysics trace of lib.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
trace="${1:-$trace}"
# The agent's OTLP requests for the trace, each a 4-byte big-endian length and the body.
(cd "$root/bench/ingest-load" && node --input-type=module -e "
  import { captureBatches } from './capture.mjs';
  import { writeFileSync } from 'node:fs';
  const { metrics } = await captureBatches({ agentBin: '$agent', trace: '$trace', workDir: '$work' });
  writeFileSync('$work/metrics.bin', Buffer.concat(metrics.flatMap((b) => {
    const n = Buffer.alloc(4); n.writeUInt32BE(b.length); return [n, b];
  })));
")
javac -d "$work/classes" -cp "$cp" "$root/bench/analytics/RowDocumentsBench.java" "$root/bench/analytics/WorkingSetBench.java" "$root/bench/analytics/PairedRounds.java"
echo "row-documents: $(nproc) cores, $(java -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -cp "$cp:$work/classes" RowDocumentsBench "$work/metrics.bin"
