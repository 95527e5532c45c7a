package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tierwise.proto.v1.BlockReference;
import io.tierwise.proto.v1.Direction;
import io.tierwise.proto.v1.EvictionPolicy;
import io.tierwise.proto.v1.IoLengthCount;
import io.tierwise.proto.v1.MiniatureSimulation;
import io.tierwise.proto.v1.ReferenceBatch;
import io.tierwise.proto.v1.WindowShare;
import io.tierwise.proto.v1.WorkingSetShares;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReferenceBatchParserTest {
  private static final String TENANT = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";

  /** P = 100, T = 10: hashes 0..9 (mod 100) are in the sample. */
  private static ReferenceBatch.Builder batch() {
    return ReferenceBatch.newBuilder().setBatchId("b-1").setHostId("h").setVolumeId("v").setSequence(3)
        .setSamplingModulus(100).setSamplingThreshold(10).setBaseTimeUnixNano(1_700_000_000_000_000_000L)
        .addReferences(ref(105, Direction.DIRECTION_READ, 0))
        .addReferences(ref(9, Direction.DIRECTION_WRITE, 250));
  }

  private static BlockReference ref(long hash, Direction d, long offsetUs) {
    return BlockReference.newBuilder().setBlockHash(hash).setDirection(d).setLengthBlocks(1)
        .setTimeOffsetUs(offsetUs).build();
  }

  @Test
  void parsesAValidBatch() throws Exception {
    ReferenceBatchEvent e = new ReferenceBatchParser().parse(TENANT, batch().build());
    assertThat(e.volumeKey()).isEqualTo(TENANT + "/v");
    assertThat(e.sequence).isEqualTo(3);
    assertThat(e.blockHashes).containsExactly(105, 9);
    assertThat(e.writes).containsExactly(false, true);
    assertThat(e.referenceTimeUnixNano(1)).isEqualTo(1_700_000_000_000_250_000L);
  }

  /** A batch with stream totals: P = 64 divides 2^24, T = 10 keeps hashes 67 and 9. */
  private static ReferenceBatch.Builder withTotals() {
    return batch().setSamplingModulus(64).clearReferences()
        .addReferences(ref(64 + 3, Direction.DIRECTION_READ, 0))
        .addReferences(ref(9, Direction.DIRECTION_WRITE, 250))
        .setConsideredReferences(40).setDistinctBlocksHllPrecision(16)
        .addDistinctBlocksHllUpdates(3 << 8 | 25).addDistinctBlocksHllUpdates(0xFFFF << 8 | 1);
  }

  @Test
  void parsesTheStreamTotals() throws Exception {
    ReferenceBatchEvent e = new ReferenceBatchParser().parse(TENANT, withTotals().build());
    assertThat(e.consideredReferences).isEqualTo(40);
    assertThat(e.distinctBlocksHllPrecision).isEqualTo(16);
    assertThat(e.distinctBlocksHllUpdates).containsExactly(3 << 8 | 25, 0xFFFF << 8 | 1);
    ReferenceBatchEvent without = new ReferenceBatchParser().parse(TENANT, batch().build());
    assertThat(without.distinctBlocksHllPrecision).isZero();
    assertThat(without.distinctBlocksHllUpdates).isEmpty();
  }

  @Test
  void rejectsStreamTotalsThatBreakTheContract() {
    ReferenceBatchParser p = new ReferenceBatchParser();
    assertThatThrownBy(() -> p.parse(TENANT, batch().setConsideredReferences(5).build()))
        .hasMessageContaining("need distinct_blocks_hll_precision");
    assertThatThrownBy(() -> p.parse(TENANT, withTotals().setConsideredReferences(1).build()))
        .hasMessageContaining("considered_references 1 is below the 2 references");
    assertThatThrownBy(() -> p.parse(TENANT, withTotals().setDistinctBlocksHllPrecision(20).build()))
        .hasMessageContaining("distinct_blocks_hll_precision: HyperLogLog precision must be in 4..18");
    assertThatThrownBy(() -> p.parse(TENANT, withTotals().setSamplingModulus(100).removeReferences(0).build()))
        .hasMessageContaining("sampling_modulus 100 does not divide 2^24");
    assertThatThrownBy(() -> p.parse(TENANT, withTotals().setDistinctBlocksHllUpdates(1, 0x1_0000 << 8 | 1).build()))
        .hasMessageContaining("distinct_blocks_hll_updates[1]: register index 65536 is not below 2^16");
    assertThatThrownBy(() -> p.parse(TENANT, withTotals().setDistinctBlocksHllUpdates(1, 3 << 8 | 2).build()))
        .hasMessageContaining("distinct_blocks_hll_updates[1]: register index 3 does not ascend");
  }

  @Test
  void rejectsBatchesThatBreakTheContract() {
    ReferenceBatchParser p = new ReferenceBatchParser();
    assertThatThrownBy(() -> p.parse(TENANT, batch().addReferences(ref(50, Direction.DIRECTION_READ, 300)).build()))
        .hasMessageContaining("reference 2: block_hash 50 is not in the sample");
    assertThatThrownBy(() -> p.parse(TENANT, batch().addReferences(ref(1, Direction.DIRECTION_UNSPECIFIED, 300)).build()))
        .hasMessageContaining("reference 2: direction DIRECTION_UNSPECIFIED");
    assertThatThrownBy(() -> p.parse(TENANT, batch().addReferences(ref(1, Direction.DIRECTION_READ, 100)).build()))
        .hasMessageContaining("reference 2: time_offset_us 100 is before the previous");
    assertThatThrownBy(() -> p.parse(TENANT, batch().setSamplingThreshold(101).build()))
        .hasMessageContaining("0 < threshold <= modulus");
    assertThatThrownBy(() -> p.parse(TENANT, batch().setVolumeId("").build()))
        .hasMessageContaining("volume_id is empty");
  }

  /** The batch with the agent's simulations at 4 and 8 MiB, its policies in an order of its own. */
  private static ReferenceBatch.Builder withSimulations() {
    List<EvictionPolicy> order = List.of(EvictionPolicy.EVICTION_POLICY_SIEVE, EvictionPolicy.EVICTION_POLICY_LRU,
        EvictionPolicy.EVICTION_POLICY_S3FIFO, EvictionPolicy.EVICTION_POLICY_TWO_Q, EvictionPolicy.EVICTION_POLICY_ARC);
    return batch().addAllMiniaturePolicies(order)
        .addMiniatureSimulations(simulation(4 << 20, 10, 2, 1, List.of(1L, 2L, 2L, 1L, 2L), List.of(1L, 1L, 1L, 0L, 1L)))
        .addMiniatureSimulations(simulation(8 << 20, 5, 1, 0, List.of(1L, 1L, 1L, 1L, 1L), List.of(0L, 0L, 0L, 0L, 0L)));
  }

  private static MiniatureSimulation simulation(long bytes, long threshold, long references, long reads, List<Long> misses,
      List<Long> readMisses) {
    return MiniatureSimulation.newBuilder().setCacheBytes(bytes).setSamplingThreshold(threshold).setReferences(references)
        .setReadReferences(reads).addAllMisses(misses).addAllReadMisses(readMisses).build();
  }

  @Test
  void parsesTheAgentsSimulationsInTheServicesPolicyOrder() throws Exception {
    ReferenceBatchEvent e = new ReferenceBatchParser().parse(TENANT, withSimulations().build());
    assertThat(e.miniature.cacheBytes).containsExactly(4 << 20, 8 << 20);
    assertThat(e.miniature.thresholds).containsExactly(10, 5);
    assertThat(e.miniature.references).containsExactly(2, 1);
    // LRU, S3FIFO, ARC, TWO_Q, SIEVE from the agent's SIEVE, LRU, S3FIFO, TWO_Q, ARC.
    assertThat(e.miniature.misses[0]).containsExactly(2, 2, 2, 1, 1);
    assertThat(e.miniature.readMisses[0]).containsExactly(1, 1, 1, 0, 1);
    assertThat(new ReferenceBatchParser().parse(TENANT, batch().build()).miniature).as("an older agent").isNull();
    ReferenceBatch withoutSieve = withSimulations().clearMiniatureSimulations().clearMiniaturePolicies()
        .addMiniaturePolicies(EvictionPolicy.EVICTION_POLICY_LRU).build();
    assertThat(new ReferenceBatchParser().parse(TENANT, withoutSieve).miniature)
        .as("policies the service reports are missing: it simulates its mirrors").isNull();
  }

  @Test
  void rejectsSimulationsThatBreakTheContract() {
    ReferenceBatchParser p = new ReferenceBatchParser();
    MiniatureSimulation first = withSimulations().getMiniatureSimulations(0);
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().clearMiniaturePolicies().build()))
        .hasMessageContaining("miniature_simulations without miniature_policies");
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().setMiniaturePolicies(0, EvictionPolicy.EVICTION_POLICY_LRU).build()))
        .hasMessageContaining("miniature_policies[1] EVICTION_POLICY_LRU is unknown or repeated");
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().setMiniatureSimulations(1, first.toBuilder().setCacheBytes(4 << 20)).build()))
        .hasMessageContaining("miniature_simulations[1]: cache_bytes 4194304 at T_C 10 does not come after the previous size");
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().setMiniatureSimulations(0, first.toBuilder().setSamplingThreshold(11)).build()))
        .hasMessageContaining("miniature_simulations[0]: sampling_threshold 11 is not in 1..the batch's 10");
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().setMiniatureSimulations(0, first.toBuilder().setReferences(3)).build()))
        .hasMessageContaining("miniature_simulations[0]: references 3 is not in 1..the batch's 2");
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().setMiniatureSimulations(0, first.toBuilder().setMisses(4, 3)).build()))
        .hasMessageContaining("miniature_simulations[0]: policy 4: misses 3");
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().setMiniatureSimulations(0, first.toBuilder().addMisses(1)).build()))
        .hasMessageContaining("needs one miss and one read miss count per policy (5)");
  }

  /** {@link #batch} with the agent's working set: 'all' and a 1 h pane, counted at T = 8 of P = 100. */
  private static ReferenceBatch.Builder withShares() {
    long base = 1_700_000_000_000_000_000L;
    long hop = 900_000_000_000L;
    long start = base / hop * hop;
    WindowShare all = WindowShare.newBuilder().setWindowSeconds(0).setPaneFirstUnixNano(base).setReferences(2)
        .setReadReferences(1).setWeight(25).setReadWeight(12.5).setFirstWeight(12.5).addHitBuckets(0)
        .addHitWeights(12.5).setBlockRepeats(1).build();
    WindowShare pane = all.toBuilder().setWindowSeconds(3600).setPaneStartUnixNano(start).setFirstWeight(0).build();
    return batch().setWorkingSet(WorkingSetShares.newBuilder().setMaxSamples(8192).setSampleId(42)
        .setSamplingThreshold(6).setLastReferenceUnixNano(base + 250_000).addShares(all).addShares(pane));
  }

  @Test
  void parsesTheAgentsWorkingSetShares() throws Exception {
    ReferenceBatchEvent e = new ReferenceBatchParser().parse(TENANT, withShares().build());
    assertThat(e.workingSet.sampleId).isEqualTo(42);
    assertThat(e.workingSet.windowSeconds).containsExactly(0, 3600);
    assertThat(e.workingSet.weight).containsExactly(25, 25);
    assertThat(e.workingSet.hitStart).containsExactly(0, 1, 2);
    assertThat(e.workingSet.hitWeights).containsExactly(12.5, 12.5);
    assertThat(new ReferenceBatchParser().parse(TENANT, batch().build()).workingSet).isNull();
  }

  @Test
  void rejectsWorkingSetSharesThatBreakTheContract() {
    ReferenceBatchParser p = new ReferenceBatchParser();
    WorkingSetShares ws = withShares().getWorkingSet();
    WindowShare all = ws.getShares(0);
    WindowShare pane = ws.getShares(1);
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setSamplingThreshold(11)).build()))
        .hasMessageContaining("working_set: sampling_threshold 11 is not in 1..the batch's 10");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setLastReferenceUnixNano(1)).build()))
        .hasMessageContaining("is not the time of the batch's last reference");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(1,
        pane.toBuilder().setWindowSeconds(7200))).build()))
        .hasMessageContaining("shares[1]: window_seconds 7200 is not a window of the service (0, 3600, 86400, 604800)");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(1,
        pane.toBuilder().setPaneStartUnixNano(pane.getPaneStartUnixNano() + 1))).build()))
        .hasMessageContaining("shares[1]: pane_start_unix_nano");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().addShares(pane)).build()))
        .hasMessageContaining("shares[2]: does not come after the previous share");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(1,
        pane.toBuilder().addHitBuckets(0).addHitWeights(1))).build()))
        .hasMessageContaining("shares[1]: hit_buckets[1] 0 is above 3711 or does not ascend");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(1,
        pane.toBuilder().setHitWeights(0, 0))).build()))
        .hasMessageContaining("shares[1]: hit_weights[0] 0.0 is not a positive finite number");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(0,
        all.toBuilder().setReadWeight(26))).build()))
        .hasMessageContaining("shares[0]: read_weight 26.0 or first_weight 12.5 is above weight 25.0");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(0,
        all.toBuilder().setWeight(Double.NaN))).build()))
        .hasMessageContaining("shares[0]: weight NaN is not a finite non-negative number");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(1,
        pane.toBuilder().setFirstWeight(1))).build()))
        .hasMessageContaining("shares[1]: first_weight 1.0 on a sliding window's pane");
    assertThatThrownBy(() -> p.parse(TENANT, withShares().setWorkingSet(ws.toBuilder().setShares(1,
        pane.toBuilder().setReadReferences(3))).build()))
        .hasMessageContaining("shares[1]: read_references 3 is above references 2");
  }

  /** {@link #withShares} with the agent's simulations and its two references summarised in their place. */
  private static ReferenceBatch.Builder summarised() {
    ReferenceBatch.Builder b = withShares().addAllMiniaturePolicies(withSimulations().getMiniaturePoliciesList())
        .addAllMiniatureSimulations(withSimulations().getMiniatureSimulationsList()).clearReferences();
    long base = b.getBaseTimeUnixNano();
    return b.setReferenceSummary(io.tierwise.proto.v1.ReferenceSummary.newBuilder().setReferences(2)
        .setFirstReferenceUnixNano(base).setLastReferenceUnixNano(base + 250_000)
        .addIoLengths(IoLengthCount.newBuilder().setDirection(Direction.DIRECTION_READ).setLengthBlocks(1).setReferences(1))
        .addIoLengths(IoLengthCount.newBuilder().setDirection(Direction.DIRECTION_WRITE).setLengthBlocks(1).setReferences(1)));
  }

  @Test
  void parsesReferencesSummarisedInTheirPlace() throws Exception {
    ReferenceBatchEvent e = new ReferenceBatchParser().parse(TENANT, summarised().build());
    assertThat(e.size()).isZero();
    assertThat(e.sampledReferences()).isEqualTo(2);
    assertThat(e.lastReferenceUnixNano()).isEqualTo(1_700_000_000_000_250_000L);
    assertThat(e.summary.writes).containsExactly(false, true);
    assertThat(e.miniature).as("its simulations count against the summarised references").isNotNull();
    assertThat(e.workingSet).isNotNull();
  }

  @Test
  void rejectsSummariesThatBreakTheContract() {
    ReferenceBatchParser p = new ReferenceBatchParser();
    io.tierwise.proto.v1.ReferenceSummary s = summarised().getReferenceSummary();
    assertThatThrownBy(() -> p.parse(TENANT, summarised().addAllReferences(batch().getReferencesList()).build()))
        .hasMessageContaining("reference_summary: beside references");
    assertThatThrownBy(() -> p.parse(TENANT, summarised().clearWorkingSet().build()))
        .hasMessageContaining("without working_set and miniature_policies");
    assertThatThrownBy(() -> p.parse(TENANT, summarised().setReferenceSummary(s.toBuilder().setReferences(3)).build()))
        .hasMessageContaining("io_lengths add up to 2 references, not 3");
    assertThatThrownBy(() -> p.parse(TENANT, summarised().setReferenceSummary(s.toBuilder()
        .setFirstReferenceUnixNano(s.getLastReferenceUnixNano() + 1)).build()))
        .hasMessageContaining("does not hold");
    assertThatThrownBy(() -> p.parse(TENANT, summarised().setReferenceSummary(s.toBuilder()
        .setIoLengths(0, s.getIoLengths(1)).setIoLengths(1, s.getIoLengths(0))).build()))
        .hasMessageContaining("io_lengths[1]: does not come after the previous one");
    assertThatThrownBy(() -> p.parse(TENANT, summarised().setReferenceSummary(s.toBuilder()
        .setLastReferenceUnixNano(s.getLastReferenceUnixNano() + 1)).build()))
        .as("the working set's last reference is the summary's").hasMessageContaining("is not the time of the batch's last reference");
  }

  @Test
  void parsesTheHostTiersSimulationsWithASizeOncePerThreshold() throws Exception {
    MiniatureSimulation first = withSimulations().getMiniatureSimulations(0);
    ReferenceBatch b = withSimulations().addHostTierSimulations(first)
        .addHostTierSimulations(first.toBuilder().setSamplingThreshold(7).setReferences(1).setReadReferences(0)
            .clearMisses().addAllMisses(List.of(1L, 1L, 1L, 1L, 1L)).clearReadMisses()
            .addAllReadMisses(List.of(0L, 0L, 0L, 0L, 0L))).build();
    ReferenceBatchEvent e = new ReferenceBatchParser().parse(TENANT, b);
    assertThat(e.hostTier.cacheBytes).containsExactly(4 << 20, 4 << 20);
    assertThat(e.hostTier.thresholds).containsExactly(10, 7);
    assertThat(new ReferenceBatchParser().parse(TENANT, withSimulations().build()).hostTier).isNull();
    ReferenceBatchParser p = new ReferenceBatchParser();
    assertThatThrownBy(() -> p.parse(TENANT, withSimulations().addHostTierSimulations(first).addHostTierSimulations(first)
        .build())).hasMessageContaining("host_tier_simulations[1]: cache_bytes 4194304 at T_C 10 does not come after");
    assertThatThrownBy(() -> p.parse(TENANT, batch().addHostTierSimulations(first).build()))
        .hasMessageContaining("host_tier_simulations without miniature_policies");
  }
}
