package io.tierwise.jobs.bench;

import io.tierwise.proto.v1.BlockReference;
import io.tierwise.proto.v1.ReferenceBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * Arranges the agent's sampled reference batches of each volume for the rescale check
 * ({@link RescaleInput}): split into about {@value #BATCHES} batches per volume (an agent batch's
 * stream totals, its considered references, sketch updates and LRU anchor, go with its last piece;
 * the others carry none, sketch precision 0; none carries the agent's miniature simulations;
 * every piece stays within the agent's 10,000 references; the first piece is the first reference
 * alone), under the check's volume, host and cluster ids, sequence numbers from 0. Times: every
 * volume's first reference at {@code t0}; its second half (batches from
 * size / 2 on) moved so that it starts 1 s after the latest reference of any volume's first half,
 * so no volume's second half starts before what a shared tier released at the end of the first.
 */
final class RescaleRefs {
  /** About how many batches each volume's references are split into. */
  static final int BATCHES = 8;

  private RescaleRefs() {}

  /** One reference at its absolute time, Unix epoch ns. */
  private record Ref(BlockReference ref, long timeUnixNano) {}

  /** The batches of every volume, in {@code volumes}' order (see the class comment). */
  static List<List<ReferenceBatch>> arrange(List<RescaleInput.Volume> volumes, List<List<ReferenceBatch>> sampled,
      long t0) {
    List<List<ReferenceBatch>> pieces = new ArrayList<>();
    long firstHalfEnd = 0;
    for (int v = 0; v < volumes.size(); v++) {
      List<ReferenceBatch> split = split(sampled.get(v));
      long first = split.get(0).getBaseTimeUnixNano();
      List<ReferenceBatch> shifted = new ArrayList<>();
      for (ReferenceBatch b : split) {
        shifted.add(shift(b, t0 - first));
      }
      pieces.add(shifted);
      ReferenceBatch lastOfHalf = shifted.get(shifted.size() / 2 - 1);
      firstHalfEnd = Math.max(firstHalfEnd, lastTime(lastOfHalf));
    }
    List<List<ReferenceBatch>> out = new ArrayList<>();
    for (int v = 0; v < volumes.size(); v++) {
      List<ReferenceBatch> b = pieces.get(v);
      long delta = firstHalfEnd + 1_000_000_000L - b.get(b.size() / 2).getBaseTimeUnixNano();
      List<ReferenceBatch> arranged = new ArrayList<>();
      for (int i = 0; i < b.size(); i++) {
        RescaleInput.Volume vol = volumes.get(v);
        arranged.add((i < b.size() / 2 ? b.get(i) : shift(b.get(i), delta)).toBuilder()
            .setBatchId("rescale-" + vol.id() + "-" + i).setSequence(i)
            .setVolumeId(vol.id()).setHostId(vol.host()).setClusterId(vol.cluster()).build());
      }
      out.add(arranged);
    }
    return out;
  }

  /** The agent's batches cut into pieces of at most total / {@value #BATCHES} references (rounded up). */
  private static List<ReferenceBatch> split(List<ReferenceBatch> batches) {
    long total = batches.stream().mapToLong(ReferenceBatch::getReferencesCount).sum();
    int size = (int) Math.max(1, (total + BATCHES - 1) / BATCHES);
    List<ReferenceBatch> out = new ArrayList<>();
    for (ReferenceBatch b : batches) {
      List<Ref> refs = new ArrayList<>();
      for (BlockReference r : b.getReferencesList()) {
        refs.add(new Ref(r, b.getBaseTimeUnixNano() + r.getTimeOffsetUs() * 1000));
      }
      for (int from = 0, n; from < refs.size(); from += n) {
        // The volume's first piece holds one reference: its priming batch spans no time.
        n = out.isEmpty() ? 1 : size;
        List<Ref> part = refs.subList(from, Math.min(refs.size(), from + n));
        // A piece cannot carry the agent's miniature simulations of the whole batch (their counts
        // are of references it does not hold, which the job refuses): the pieces go without, so
        // every policy's curve is LRU's in both runs (docs/flink-cluster.md "Rescaling").
        ReferenceBatch.Builder piece = b.toBuilder().clearReferences()
            .clearMiniaturePolicies().clearMiniatureSimulations().clearHostTierSimulations();
        if (from + n < refs.size()) {
          piece.setDistinctBlocksHllPrecision(0).setConsideredReferences(0).clearDistinctBlocksHllUpdates()
              .setLruAnchorHits(0).setLruAnchorBlocks(0);
        }
        piece.setBaseTimeUnixNano(part.get(0).timeUnixNano());
        for (Ref r : part) {
          piece.addReferences(r.ref().toBuilder().setTimeOffsetUs((r.timeUnixNano() - part.get(0).timeUnixNano()) / 1000));
        }
        out.add(piece.build());
      }
    }
    return out;
  }

  private static ReferenceBatch shift(ReferenceBatch b, long nanos) {
    return b.toBuilder().setBaseTimeUnixNano(b.getBaseTimeUnixNano() + nanos).build();
  }

  private static long lastTime(ReferenceBatch b) {
    int n = b.getReferencesCount();
    return b.getBaseTimeUnixNano() + (n == 0 ? 0 : b.getReferences(n - 1).getTimeOffsetUs() * 1000);
  }
}
