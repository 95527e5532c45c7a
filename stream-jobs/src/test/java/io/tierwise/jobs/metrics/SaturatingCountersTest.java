package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The rollups' counters never wrap (issue 16 finding 8: two data points of 2^63 - 1 read I/Os
 * were read back as -2): every merge of counters saturates at 2^63 - 1.
 */
class SaturatingCountersTest {
  @Test
  void addsBelowTheLimitAndStaysThereAbove() {
    assertThat(SaturatingCounters.add(2, 3)).isEqualTo(5);
    assertThat(SaturatingCounters.add(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(SaturatingCounters.add(Long.MAX_VALUE - 1, 1)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void ioCountersSourcesLatencyAndBlockSizesSaturate() {
    IoCounters io = new IoCounters();
    io.readOps = Long.MAX_VALUE;
    io.writeBytes = Long.MAX_VALUE - 5;
    io.add(io.copy());
    assertThat(io.readOps).isEqualTo(Long.MAX_VALUE);
    assertThat(io.writeBytes).isEqualTo(Long.MAX_VALUE);

    long[] buckets = new long[LatencyHistograms.BUCKETS];
    buckets[3] = Long.MAX_VALUE;
    LatencyHistograms latency = new LatencyHistograms();
    latency.add(false, 4, buckets);
    latency.add(latency.copy());
    assertThat(latency.counts).containsOnly(Long.MAX_VALUE);

    SourceIo sources = new SourceIo();
    sources.ops[0] = Long.MAX_VALUE;
    sources.add(sources.copy());
    assertThat(sources.ops[0]).isEqualTo(Long.MAX_VALUE);

    BlockSizeCounts sizes = new BlockSizeCounts();
    sizes.readOps[2] = Long.MAX_VALUE;
    BlockSizeCounts more = new BlockSizeCounts();
    more.readOps[2] = 1;
    sizes.add(more);
    assertThat(sizes.readOps[2]).isEqualTo(Long.MAX_VALUE);
  }
}
