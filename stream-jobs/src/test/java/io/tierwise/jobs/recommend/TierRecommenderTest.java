package io.tierwise.jobs.recommend;

import static io.tierwise.jobs.workingset.estimate.MissRatioCurve.GIB;
import static io.tierwise.jobs.workingset.estimate.MissRatioCurve.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.MeasuredLatency;
import io.tierwise.jobs.metrics.SourceIo;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

class TierRecommenderTest {
  private static final double SECONDS = 100;

  /**
   * A stepped MRC: everything misses below {@code knee}, miss ratio {@code middle} from the knee,
   * the cold-miss floor {@code floor} from {@code 2 x knee}.
   */
  private static LongToDoubleFunction stepped(long knee, double middle, double floor) {
    return bytes -> bytes >= 2 * knee ? floor : bytes >= knee ? middle : 1.0;
  }

  /** {@code reads} I/Os of {@code readBytes} each and {@code writes} of {@code writeBytes}, over 100 s. */
  private static IoProfile io(double reads, long readBytes, double writes, long writeBytes) {
    IoProfile p = new IoProfile();
    p.readOps[IoLengthBins.of(readBytes)] = reads;
    p.readBytes[IoLengthBins.of(readBytes)] = reads * readBytes;
    p.writeOps[IoLengthBins.of(writeBytes)] = writes;
    p.writeBytes[IoLengthBins.of(writeBytes)] = writes * writeBytes;
    p.firstUnixNano = 1;
    p.lastUnixNano = 1 + (long) (SECONDS * 1e9);
    return p;
  }

  private static MissRatioCurve curve(LongToDoubleFunction mrc, long wssBytes) {
    long[] sizes = MissRatioCurve.cacheSizeGrid(wssBytes);
    double[] miss = new double[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      miss[i] = mrc.applyAsDouble(sizes[i]);
    }
    return new MissRatioCurve(sizes, miss);
  }

  private static TierRecommender.Input input(LongToDoubleFunction all, LongToDoubleFunction reads, long wssBytes,
      long refs, IoProfile io) {
    return input(all, reads, wssBytes, refs, io, null);
  }

  private static TierRecommender.Input input(LongToDoubleFunction all, LongToDoubleFunction reads, long wssBytes,
      long refs, IoProfile io, TierRecommender.EvictionCurves evictions) {
    return new TierRecommender.Input("t", "v", "24h", curve(all, wssBytes), all, curve(reads, wssBytes), reads,
        wssBytes, "shards-fixed-size", 0.01, refs, io, evictions, null);
  }

  /**
   * A read-heavy volume with a small working set: small reads, and a read curve whose achievable
   * hit ratio is reached only at its second step, so the target needs the larger tier, in RAM.
   */
  private static TierRecommender.Input readHeavySmall() {
    return input(stepped(384 * MIB, 0.4, 0.3), stepped(384 * MIB, 0.3, 0.2), 700 * MIB, 5000, io(9000, 4096, 1000, 4096));
  }

  /** Small reads and large writes: writes are a minority of the I/Os but most of the latency (write-back). */
  private static TierRecommender.Input largeWrites() {
    return input(stepped(64 * MIB, 0.5, 0.4), stepped(64 * MIB, 0.6, 0.5), 100 * MIB, 5000, io(6000, 4096, 4000, 131072));
  }

  /** Policies that miss {@code s3fifo} (and 2Q {@code twoQ}) less than LRU below 768 MiB; ARC and SIEVE as LRU. */
  private static TierRecommender.EvictionCurves fewerMisses(double s3fifo, double twoQ) {
    return (policy, bytes, lruMiss, coldMiss, readsOnly) -> {
      double less = bytes >= 768 * MIB ? 0 : switch (policy) {
        case S3FIFO -> s3fifo;
        case TWO_Q -> twoQ;
        default -> 0;
      };
      return Math.max(0, lruMiss - less);
    };
  }

  @Test
  void theSizeAndTheEvictionPolicyAreChosenTogether() throws Exception {
    // LRU reaches the target 0.72 at 768 MiB; S3-FIFO misses 0.1 less and reaches it at 384 MiB
    // (RAM: 512 MiB), where 2Q is 0.003 better still: within 0.005, the engine's default stays.
    LongToDoubleFunction reads = stepped(384 * MIB, 0.3, 0.2);
    IoProfile io = io(9000, 4096, 1000, 4096);
    Recommendation r = TierRecommender.recommend(input(stepped(384 * MIB, 0.4, 0.3), reads, 700 * MIB, 5000, io,
        fewerMisses(0.1, 0.103))).orElseThrow();
    assertThat(r.tierBytes).isEqualTo(512 * MIB);
    assertThat(r.eviction).isEqualTo("s3-fifo");
    assertThat(r.predictedHitRatio).isCloseTo(0.8, within(1e-12));
    assertThat(r.offloadedIops).as("9,000 reads x 0.8 over 100 s").isCloseTo(72, within(1e-9));
    assertThat(r.explanation).contains("Eviction S3-FIFO: it keeps 14.3 % more of the re-referenced blocks"
        + " than LRU at 512 MiB (80.0 % hits against 70.0 %).");
    // Each policy's tier writes: 90 reads/s, the misses admitted, and 10 writes/s populated.
    JsonNode writes = new ObjectMapper().readTree(r.inputsJson).get("eviction_tier_write_bytes_per_day");
    assertThat(writes.get("s3-fifo").asDouble()).isCloseTo((90 * 0.2 + 10) * 4096 * 86_400.0, within(1e-3));
    assertThat(writes.get("lru").asDouble()).isCloseTo((90 * 0.3 + 10) * 4096 * 86_400.0, within(1e-3));
    assertThat(r.tierWriteBytesPerDay).isEqualTo(writes.get("s3-fifo").asDouble());
    // The what-if table: every grid size under every policy; at the recommended size and policy, the recommendation.
    JsonNode whatIf = new ObjectMapper().readTree(r.inputsJson).get("what_if");
    assertThat(whatIf).hasSize(MissRatioCurve.cacheSizeGrid(700 * MIB).length * 5);
    JsonNode chosen = java.util.stream.StreamSupport.stream(whatIf.spliterator(), false)
        .filter(w -> w.get("cache_bytes").asLong() == 512 * MIB && w.get("eviction").asText().equals("s3-fifo"))
        .findFirst().orElseThrow();
    assertThat(chosen.get("media").asText()).isEqualTo("ram");
    assertThat(chosen.get("hit_ratio").asDouble()).isEqualTo(r.predictedHitRatio);
    assertThat(chosen.get("offloaded_iops").asDouble()).isEqualTo(r.offloadedIops);
    assertThat(chosen.get("latency_us").asDouble()).isEqualTo(r.predictedLatencyMicros);
    assertThat(chosen.get("tier_write_bytes_per_day").asDouble()).isEqualTo(r.tierWriteBytesPerDay);
    // 2Q 0.02 better: it wins.
    Recommendation twoQ = TierRecommender.recommend(input(stepped(384 * MIB, 0.4, 0.3), reads, 700 * MIB, 5000, io,
        fewerMisses(0.1, 0.12))).orElseThrow();
    assertThat(twoQ.eviction).isEqualTo("2q");
    assertThat(twoQ.predictedHitRatio).isCloseTo(0.82, within(1e-12));
    assertThat(twoQ.explanation).contains("Eviction 2Q: at 512 MiB it hits 82.0 % where the engine's default S3-FIFO hits"
        + " 80.0 % (LRU 70.0 %).");
    assertThat(twoQ.differsMateriallyFrom(r, 0.05)).as("another eviction policy is a material change").isTrue();
    // Without simulations (a cluster's stream): LRU, and the LRU size.
    Recommendation lru = TierRecommender.recommend(input(stepped(384 * MIB, 0.4, 0.3), reads, 700 * MIB, 5000, io))
        .orElseThrow();
    assertThat(lru.eviction).isEqualTo("lru");
    assertThat(lru.tierBytes).isEqualTo(768 * MIB);
  }

  @Test
  void theRecommendationInForceStaysWhileItsPredictionHolds() {
    IoProfile io = io(9000, 4096, 1000, 4096);
    LongToDoubleFunction all = stepped(384 * MIB, 0.4, 0.3);
    Recommendation held = TierRecommender.recommend(input(all, stepped(384 * MIB, 0.3, 0.2), 700 * MIB, 5000, io))
        .orElseThrow();
    assertThat(held.tierBytes).isEqualTo(768 * MIB);
    // The knee moves to 256 MiB: 512 MiB would do now, and 768 MiB still hits 80 %: it stays.
    LongToDoubleFunction smaller = stepped(256 * MIB, 0.3, 0.2);
    assertThat(TierRecommender.recommend(input(all, smaller, 700 * MIB, 5000, io)).orElseThrow().tierBytes)
        .isEqualTo(512 * MIB);
    Recommendation kept = TierRecommender.recommend(input(all, smaller, 700 * MIB, 5000, io), held).orElseThrow();
    assertThat(kept.tierBytes).isEqualTo(768 * MIB);
    assertThat(kept.media).isEqualTo("ram");
    assertThat(kept.differsMateriallyFrom(held, TierRecommender.HOLD_HIT_RATIO_TOLERANCE)).isFalse();
    assertThat(kept.explanation).endsWith("The 768 MiB tier recommended before stays: its predicted hit ratio holds"
        + " (80.0 % then, 80.0 % now), where today's curve alone would ask for 512 MiB.");
    // Half the tier would do (knee at 128 MiB: 256 MiB): a new recommendation.
    assertThat(TierRecommender.recommend(input(all, stepped(128 * MIB, 0.3, 0.2), 700 * MIB, 5000, io), held)
        .orElseThrow().tierBytes).isEqualTo(256 * MIB);
    // The prediction no longer holds (the tier would hit 90 %, not 80 %): a new one, material.
    Recommendation moved = TierRecommender.recommend(input(all, stepped(384 * MIB, 0.25, 0.1), 700 * MIB, 5000, io),
        held).orElseThrow();
    assertThat(moved.predictedHitRatio).isCloseTo(0.9, within(1e-12));
    assertThat(moved.differsMateriallyFrom(held, TierRecommender.HOLD_HIT_RATIO_TOLERANCE)).isTrue();
    // Writes grow to 60 % of I/Os: write-back is another recommendation, whatever the hit ratio.
    assertThat(TierRecommender.recommend(input(all, smaller, 700 * MIB, 5000, io(4000, 4096, 6000, 4096)), held)
        .orElseThrow().policy).isEqualTo("write-back");
  }

  @Test
  void readHeavySmallWorkingSetGetsRamWriteThroughWithOffloadAndLatency() throws Exception {
    Recommendation r = TierRecommender.recommend(readHeavySmall()).orElseThrow();
    assertThat(r.achievableHitRatio).isCloseTo(0.8, within(1e-12));
    assertThat(r.targetHitRatio).isCloseTo(0.72, within(1e-12));
    assertThat(r.tierBytes).isEqualTo(768 * MIB);
    assertThat(r.media).isEqualTo("ram");
    assertThat(r.policy).isEqualTo("write-through");
    assertThat(r.replicas).isZero();
    assertThat(r.predictedHitRatio).as("the reads' curve: write-through serves reads").isCloseTo(0.8, within(1e-12));
    // 9,000 reads x 0.8 hit over 100 s = 72 IOPS, of 4 KiB each.
    assertThat(r.offloadedIops).isCloseTo(72, within(1e-9));
    assertThat(r.offloadedBytesPerSecond).isCloseTo(72 * 4096, within(1e-6));
    // Datastore 1000 + 4096/200 us per I/O; with the tier 80 % of reads cost 5 + 4096/4000 us.
    double ds = 1000 + 4096 / 200.0;
    double ram = 5 + 4096 / 4000.0;
    assertThat(r.datastoreLatencyMicros).isCloseTo(ds, within(1e-9));
    assertThat(r.predictedLatencyMicros).isCloseTo((9000 * (0.8 * ram + 0.2 * ds) + 1000 * ds) / 10_000,
        within(1e-9));
    assertThat(r.explanation).contains("Over the last 24h, reads are 90.0 % of I/Os", "768 MiB", "RAM because",
        "Write-through", "72.0 I/Os");
    JsonNode inputs = new ObjectMapper().readTree(r.inputsJson);
    assertThat(inputs.get("read_share").asDouble()).isCloseTo(0.9, within(1e-12));
    assertThat(inputs.get("required_cache_bytes").asLong()).isEqualTo(768 * MIB);
    assertThat(inputs.get("latency_models").get("datastore").get("base_us").asDouble()).isEqualTo(1000);
    assertThat(inputs.get("mrc_points")).hasSize(MissRatioCurve.cacheSizeGrid(700 * MIB).length);
  }

  @Test
  void theDatastoresAndPeersMeasuredLatencyReplacesTheAssumedOneAndTheRecommendationSaysWhichWasAssumed()
      throws Exception {
    TierRecommender.Input in = readHeavySmall();
    // The agent measured the 4 KiB reads at 300 us on the datastore (a fast array), and only 5 of
    // the writes (below MIN_MEASURED_OPS: the model stays for them).
    MeasuredLatency measured = new MeasuredLatency();
    int bin = IoLengthBins.of(4096);
    int datastore = SourceIo.sourceIndex("datastore");
    measured.add(datastore, false, bin, 2000, 2000 * 300.0);
    measured.add(datastore, true, bin, 5, 5 * 50.0);
    Recommendation r = TierRecommender.recommend(in.withMeasured(measured)).orElseThrow();
    double ds = 1000 + 4096 / 200.0;  // the model, for the writes
    double ram = 5 + 4096 / 4000.0;
    assertThat(r.datastoreLatencyMicros).isCloseTo((9000 * 300 + 1000 * ds) / 10_000, within(1e-9));
    assertThat(r.predictedLatencyMicros).isCloseTo((9000 * (0.8 * ram + 0.2 * 300) + 1000 * ds) / 10_000,
        within(1e-9));
    JsonNode share = new ObjectMapper().readTree(r.inputsJson).get("measured_latency_share");
    assertThat(share.get("datastore").asDouble()).isCloseTo(0.9, within(1e-12));
    assertThat(share.get("tier").asDouble()).isZero();
    assertThat(r.explanation).contains("Latency: the datastore's as the agent measured it for 90.0 % of the I/Os"
        + " (by size), assumed for the rest (1000 us + 200 MB/s); the tier's assumed (5 us + 4000 MB/s).");

    // Nothing measured: every figure assumed, and said so.
    Recommendation assumed = TierRecommender.recommend(in).orElseThrow();
    assertThat(assumed.datastoreLatencyMicros).isCloseTo(ds, within(1e-9));
    assertThat(assumed.explanation).contains("Latency: the datastore's assumed (1000 us + 200 MB/s): nothing measured"
        + " yet; the tier's assumed");
  }

  @Test
  void aWriteBackTiersPeerLatencyIsTheMeasuredOneWhereThereIsOne() {
    TierRecommender.Input in = largeWrites();
    MeasuredLatency slowerPeer = new MeasuredLatency();
    slowerPeer.add(SourceIo.sourceIndex("peer"), true, IoLengthBins.of(131072), 100, 100 * 1200.0);
    Recommendation r = TierRecommender.recommend(in.withMeasured(slowerPeer)).orElseThrow();
    Recommendation modelled = TierRecommender.recommend(in).orElseThrow();
    assertThat(r.policy).isEqualTo("write-back");
    // A write-back write waits for the slower of the tier and its peer: 1.2 ms on the measured peer,
    // still faster than the datastore's 1655 us for 128 KiB.
    assertThat(r.predictedLatencyMicros - modelled.predictedLatencyMicros)
        .isCloseTo(4000 * (1200 - (60 + 131072 / 1250.0)) / 10_000, within(1e-6));
    assertThat(r.explanation).contains("the peers' as measured");
    assertThat(modelled.explanation).contains("the peers' assumed (60 us + 1250 MB/s)");
  }

  @Test
  void aPeerSlowerThanTheDatastoreMakesWriteThroughAndNamesTheLinkSpeedThatWouldChangeIt() throws Exception {
    // Writes, most of the I/Os, of 4 KiB and 128 KiB; a peer measured as a congested link (round
    // trip plus a low bandwidth): its 4 KiB replicas beat the modelled datastore, its 128 KiB ones
    // do not.
    IoProfile io = io(4000, 4096, 3000, 4096);
    int large = IoLengthBins.of(131072);
    io.writeOps[large] = 3000;
    io.writeBytes[large] = 3000 * 131072.0;
    TierRecommender.Input in = input(stepped(64 * MIB, 0.5, 0.4), stepped(64 * MIB, 0.6, 0.5), 100 * MIB, 5000, io);
    MeasuredLatency slowLink = new MeasuredLatency();
    int peer = SourceIo.sourceIndex("peer");
    slowLink.add(peer, true, IoLengthBins.of(4096), 500, 500 * (500 + 4096 / 10.0));
    slowLink.add(peer, true, large, 500, 500 * (500 + 131072 / 10.0));
    Recommendation r = TierRecommender.recommend(in.withMeasured(slowLink)).orElseThrow();
    assertThat(r.policy).isEqualTo("write-through");
    assertThat(r.replicas).isZero();
    JsonNode link = new ObjectMapper().readTree(r.inputsJson).get("interconnect");
    assertThat(link.get("peer_round_trip_us").asDouble()).isCloseTo(500, within(1e-6));
    assertThat(link.get("peer_link_gbps").asDouble()).isCloseTo(0.08, within(1e-9));
    assertThat(link.get("write_back_faster_bins").toString()).isEqualTo("[\"4096\"]");
    assertThat(link.get("write_back_slower_bins").toString()).isEqualTo("[\"131072\"]");
    // 128 KiB in under 1655 - 500 us: 131072 / 1155 bytes/us = 0.908 Gb/s.
    double needed = 131072 / (1000 + 131072 / 200.0 - 500) * 8 / 1000;
    assertThat(link.get("peer_bottleneck_gbps_needed").get("131072").asDouble()).isCloseTo(needed, within(1e-9));
    assertThat(r.explanation).contains("Write-through although writes are 60.0 % of I/Os",
        "(write-back above 50.0 % of either, where the peer link lets it beat the datastore: below)");
    assertThat(r.explanation).contains("Write-back is slower than the datastore for writes of 128 KiB (peer link:"
        + " 500 us round trip, 0.1 Gb/s, fitted to the measured replica writes); the interconnect is the bottleneck"
        + " for 128 KiB: a link of 0.9 Gb/s or more would make write-back faster there, so write-back would make this"
        + " volume's writes slower overall.");

    // The same volume without the slow link: write-back, and nothing said about the interconnect.
    Recommendation fast = TierRecommender.recommend(in).orElseThrow();
    assertThat(fast.policy).isEqualTo("write-back");
    assertThat(fast.explanation).doesNotContain("Write-back is slower");
  }

  @Test
  void largeWritesMakeWriteBackWithOneReplicaAndSayWhy() {
    Recommendation r = TierRecommender.recommend(largeWrites()).orElseThrow();
    assertThat(r.policy).isEqualTo("write-back");
    assertThat(r.replicas).isEqualTo(1);
    assertThat(r.media).isEqualTo("nvme");
    assertThat(r.tierBytes).isEqualTo(GIB);
    assertThat(r.predictedHitRatio).as("all references: write-back absorbs writes").isCloseTo(0.6, within(1e-12));
    assertThat(r.explanation).contains("Write-back with 1 peer replica because writes are 40.0 % of I/Os",
        "writes of 64 KiB and larger cause 100.0 % of write latency");
    assertThat(r.predictedLatencyMicros).isLessThan(r.datastoreLatencyMicros);
  }

  @Test
  void readHeavyButLargeGoesToNvme() {
    // Knee at 3 GiB: target reached at 6 GiB, more than the 4 GiB RAM limit.
    LongToDoubleFunction mrc = stepped(3 * GIB, 0.5, 0.1);
    Recommendation r = TierRecommender.recommend(input(mrc, mrc, 5 * GIB, 5000, io(9500, 8192, 500, 8192)))
        .orElseThrow();
    assertThat(r.media).isEqualTo("nvme");
    assertThat(r.tierBytes).isEqualTo(6 * GIB);
    assertThat(r.explanation).contains("more than the 4 GiB RAM limit");
    // Flash endurance: 95 reads/s of two blocks, 0.9 of them hits at 6 GiB; 5 writes/s of two blocks,
    // populated: (95 x 2 x 0.1 + 5 x 2) x 4 KiB x 86,400 s = 9.56 GiB per day, 1.6 drive writes per day.
    assertThat(r.tierWriteBytesPerDay).isCloseTo((95 * 2 * 0.1 + 5 * 2) * 4096 * 86_400.0, within(1e-3));
    assertThat(r.explanation).contains("The tier takes 9.6 GiB of writes per day (1.6 drive writes per day for a device of 6 GiB).");
  }

  @Test
  void noRecommendationWithoutReuseOrWithTooLittleData() {
    IoProfile io = io(900, 4096, 100, 4096);
    assertThat(TierRecommender.recommend(input(b -> 1.0, b -> 1.0, 10 * MIB, 5000, io))).isEmpty();
    LongToDoubleFunction mrc = stepped(64 * MIB, 0.3, 0.2);
    assertThat(TierRecommender.recommend(input(mrc, mrc, 100 * MIB, 999, io))).isEmpty();
  }
}
