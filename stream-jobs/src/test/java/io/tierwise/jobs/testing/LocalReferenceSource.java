package io.tierwise.jobs.testing;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.proto.v1.BlockReference;
import io.tierwise.proto.v1.Direction;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A test-scope stand-in for the agent, used only outside CI while edge-agent/build/tierwise-agent
 * does not exist: samples the trace's 4 KiB block references with keyed SipHash-2-4 (Guava; the
 * agent uses libsodium's crypto_shorthash, the same function on the same input) as
 * {@code H(L) mod 2^24 < T}, adds the stream totals (considered references, distinct-block sketch
 * updates, {@link SketchRegisters}), and computes the exact MRC with {@link ExactLru}.
 */
public final class LocalReferenceSource implements ReferenceSource {
  private static final long MODULUS = 1L << 24;
  private static final int BATCH_REFERENCES = 4096;
  private static final int SKETCH_PRECISION = 16;
  private static final byte[] BLOCK_DOMAIN = "block:".getBytes(StandardCharsets.US_ASCII);

  @Override
  public String name() {
    return "test-scope SipHash sampler + exact LRU (agent binary absent)";
  }

  @Override
  public List<ReferenceBatch> sample(Path trace, String keyHex, double rate) throws Exception {
    ByteBuffer key = ByteBuffer.wrap(HexFormat.of().parseHex(keyHex)).order(ByteOrder.LITTLE_ENDIAN);
    HashFunction sipHash = Hashing.sipHash24(key.getLong(0), key.getLong(8));
    long threshold = Math.round(rate * MODULUS);
    SketchRegisters sketch = new SketchRegisters(SKETCH_PRECISION);
    List<ReferenceBatch> batches = new ArrayList<>();
    ReferenceBatch.Builder batch = null;
    long baseMicros = 0;
    long considered = 0;
    for (VscsiTrace.BlockRef ref : VscsiTrace.blockReferences(trace)) {
      if (batch == null) {
        baseMicros = ref.timeMicros();
        batch = ReferenceBatch.newBuilder().setBatchId("local-" + batches.size())
            .setVolumeId("cloudphysics").setHostId("local").setSequence(batches.size())
            .setSamplingModulus(MODULUS).setSamplingThreshold(threshold)
            .setBaseTimeUnixNano(baseMicros * 1000);
        considered = 0;
      }
      // H(L) as the agent computes it: SipHash-2-4 of "block:" + L (8 bytes, little-endian).
      long hash = sipHash.newHasher().putBytes(BLOCK_DOMAIN).putLong(ref.block()).hash().asLong();
      considered++;
      sketch.add(hash);
      if (Long.compareUnsigned(Long.remainderUnsigned(hash, MODULUS), threshold) >= 0) {
        continue;
      }
      batch.addReferences(BlockReference.newBuilder().setBlockHash(hash).setLengthBlocks(1)
          .setDirection(ref.write() ? Direction.DIRECTION_WRITE : Direction.DIRECTION_READ)
          .setTimeOffsetUs(ref.timeMicros() - baseMicros));
      if (batch.getReferencesCount() == BATCH_REFERENCES) {
        batches.add(withTotals(batch, considered, sketch));
        batch = null;
      }
    }
    if (batch != null) {
      batches.add(withTotals(batch, considered, sketch));
    }
    return batches;
  }

  private static ReferenceBatch withTotals(ReferenceBatch.Builder batch, long considered, SketchRegisters sketch) {
    batch.setConsideredReferences(considered).setDistinctBlocksHllPrecision(sketch.precision());
    for (int update : sketch.drainUpdates()) {
      batch.addDistinctBlocksHllUpdates(update);
    }
    return batch.build();
  }

  @Override
  public MissRatioCurve exactMrc(Path trace, long[] cacheBytes) throws Exception {
    ExactLru lru = new ExactLru(cacheBytes);
    for (VscsiTrace.BlockRef ref : VscsiTrace.blockReferences(trace)) {
      lru.reference(ref.block());
    }
    return new MissRatioCurve(cacheBytes, lru.missRatios());
  }
}
