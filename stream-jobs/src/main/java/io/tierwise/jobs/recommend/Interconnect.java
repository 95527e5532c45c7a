package io.tierwise.jobs.recommend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tierwise.jobs.json.Json;
import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the replica interconnect lets write-back beat the datastore, size bin by size bin
 * (docs/analytics.md "The replica interconnect"; the InfiniBand home-lab lesson: WB+1 over 1 GbE
 * adds the network to every write, and at 256 KiB it dominates). A write-back write waits for the
 * slower of the tier and its peer replica ({@link TierEffect}), a write-through write for the
 * datastore; service times as {@link ServiceTimes} (measured where the agent measured).
 *
 * <p>The peer link is described by a round trip and a bandwidth: fitted by least squares to the
 * mean peer latency of the bins where it was measured (two sizes or more), the round trip alone
 * from one measured bin at {@link LatencyModel#PEER}'s bandwidth, else {@link LatencyModel#PEER}.
 * From them, the link bandwidth at which write-back would beat the datastore in a bin where the
 * interconnect is the bottleneck: {@code size / (datastore - round trip)}.
 */
final class Interconnect {
  /** Bits per byte over 1000: bytes per microsecond to Gb/s. */
  private static final double GBPS_PER_BYTE_PER_MICRO = 8.0 / 1000;

  /** One ioLength bin of writes: its I/Os, mean size (bytes) and each path's service time (us). */
  record Bin(int bin, double writes, double sizeBytes, double tierMicros, double peerMicros, double datastoreMicros) {
    /** Whether write-back (the slower of tier and peer) is faster than the datastore. */
    boolean writeBackFaster() {
      return Math.max(tierMicros, peerMicros) < datastoreMicros;
    }

    /** Whether write-back is not faster because of the peer (the interconnect is the bottleneck). */
    boolean peerBottleneck() {
      return !writeBackFaster() && peerMicros >= tierMicros && tierMicros < datastoreMicros;
    }
  }

  final List<Bin> bins;
  /** The peer link's round trip, microseconds, and bandwidth, bytes per microsecond (= MB/s). */
  final double roundTripMicros;
  final double bytesPerMicro;
  /** Whether the link was fitted to measured peer latency (false: LatencyModel.PEER). */
  final boolean measured;

  private Interconnect(List<Bin> bins, double roundTripMicros, double bytesPerMicro, boolean measured) {
    this.bins = bins;
    this.roundTripMicros = roundTripMicros;
    this.bytesPerMicro = bytesPerMicro;
    this.measured = measured;
  }

  /** The write bins of {@code io} on a write-back tier of {@code tier}. */
  static Interconnect of(IoProfile io, ServiceTimes times, LatencyModel tier) {
    List<Bin> bins = new ArrayList<>();
    List<double[]> points = new ArrayList<>();
    for (int b = 0; b < io.writeOps.length; b++) {
      if (io.writeOps[b] <= 0) {
        continue;
      }
      double size = io.writeBytes[b] / io.writeOps[b];
      double peer = times.peer(b, size);
      bins.add(new Bin(b, io.writeOps[b], size, tier.micros(size), peer, times.datastore(true, b, size)));
      if (times.peerMeasured(b)) {
        points.add(new double[] {size, peer});
      }
    }
    double rtt = LatencyModel.PEER.baseMicros();
    double bw = LatencyModel.PEER.bytesPerMicro();
    if (points.size() >= 2) {
      double mx = points.stream().mapToDouble(p -> p[0]).average().orElse(0);
      double my = points.stream().mapToDouble(p -> p[1]).average().orElse(0);
      double cov = points.stream().mapToDouble(p -> (p[0] - mx) * (p[1] - my)).sum();
      double var = points.stream().mapToDouble(p -> (p[0] - mx) * (p[0] - mx)).sum();
      if (cov > 0 && var > 0) {
        bw = var / cov;  // else the sizes tell no bandwidth apart: the assumed one stays
      }
      rtt = Math.max(0, my - mx / bw);
    } else if (points.size() == 1) {
      rtt = Math.max(0, points.get(0)[1] - points.get(0)[0] / bw);
    }
    return new Interconnect(bins, rtt, bw, !points.isEmpty());
  }

  /** Summed latency of the writes in write-back (tier and peer in parallel), microseconds. */
  double writeBackMicros() {
    return bins.stream().mapToDouble(b -> b.writes * Math.max(b.tierMicros, b.peerMicros)).sum();
  }

  /** Summed latency of the writes in write-through (the datastore), microseconds. */
  double writeThroughMicros() {
    return bins.stream().mapToDouble(b -> b.writes * b.datastoreMicros).sum();
  }

  /** Whether write-back makes the writes faster over all bins, weighted by their writes. */
  boolean writeBackFaster() {
    return writeBackMicros() < writeThroughMicros();
  }

  /**
   * The link bandwidth at which a bin's peer write would beat the datastore, Gb/s; NaN when the
   * round trip alone is at least the datastore's time (no bandwidth helps).
   */
  double gbpsNeeded(Bin b) {
    double room = b.datastoreMicros - roundTripMicros;
    return room <= 0 ? Double.NaN : b.sizeBytes / room * GBPS_PER_BYTE_PER_MICRO;
  }

  /** The figures for the recommendation's inputs. */
  ObjectNode json() {
    ObjectNode o = Json.object();
    o.put("peer_round_trip_us", roundTripMicros).put("peer_link_gbps", bytesPerMicro * GBPS_PER_BYTE_PER_MICRO)
        .put("fitted_to_measured", measured);
    o.put("write_back_write_latency_us", writeBackMicros()).put("write_through_write_latency_us", writeThroughMicros());
    var faster = o.putArray("write_back_faster_bins");
    var slower = o.putArray("write_back_slower_bins");
    ObjectNode needed = o.putObject("peer_bottleneck_gbps_needed");
    for (Bin b : bins) {
      (b.writeBackFaster() ? faster : slower).add(IoLengthBins.label(b.bin));
      if (b.peerBottleneck()) {
        double gbps = gbpsNeeded(b);
        if (Double.isNaN(gbps)) {
          needed.putNull(IoLengthBins.label(b.bin));
        } else {
          needed.put(IoLengthBins.label(b.bin), gbps);
        }
      }
    }
    return o;
  }

  /**
   * What the interconnect means for write-back, or "" when every bin is faster in write-back: the
   * bins where it is slower, those where the peer link is the bottleneck and the link speed that
   * would change that.
   */
  String explain() {
    List<Bin> slower = bins.stream().filter(b -> !b.writeBackFaster()).toList();
    if (slower.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder("Write-back is slower than the datastore for writes of ")
        .append(sizes(slower)).append(" (peer link: ")
        .append(String.format("%.0f us round trip, %.1f Gb/s", roundTripMicros, bytesPerMicro * GBPS_PER_BYTE_PER_MICRO))
        .append(measured ? ", fitted to the measured replica writes)" : ", assumed)");
    List<Bin> bottleneck = slower.stream().filter(Bin::peerBottleneck).toList();
    if (!bottleneck.isEmpty()) {
      double needed = bottleneck.stream().mapToDouble(this::gbpsNeeded).max().orElse(Double.NaN);
      s.append("; the interconnect is the bottleneck for ").append(sizes(bottleneck)).append(bottleneck.stream()
          .anyMatch(b -> Double.isNaN(gbpsNeeded(b))) ? ": its round trip alone is slower than the datastore"
              : String.format(": a link of %.1f Gb/s or more would make write-back faster there", needed));
    }
    return s.append(writeBackFaster() ? "." : ", so write-back would make this volume's writes slower overall.").toString();
  }

  private static String sizes(List<Bin> bins) {
    return String.join(", ", bins.stream().map(b -> Sizes.human(Math.round(b.sizeBytes))).toList());
  }
}
