package io.tierwise.jobs.recommend;

import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.MeasuredLatency;
import io.tierwise.jobs.workingset.estimate.IoProfile;

/**
 * The service time of one I/O behind the tier that the recommendation's latency model uses
 * (docs/analytics.md "Measured latency"): on the datastore, and on a peer for a write-back
 * replica, the mean latency the agent measured for the I/O's direction and ioLength bin
 * ({@link MeasuredLatency}) where it measured at least {@value #MIN_MEASURED_OPS} I/Os; else the
 * assumed {@link LatencyModel#DATASTORE} and {@link LatencyModel#PEER}. The tier's own service
 * time is always its media's model: the telemetry does not say which media ran.
 */
final class ServiceTimes {
  /** I/Os of a direction and bin below which its measured mean is not used (the model is). */
  static final long MIN_MEASURED_OPS = 10;

  private final MeasuredLatency measured;

  /** @param measured what the agent measured, or null (nothing: every figure assumed) */
  ServiceTimes(MeasuredLatency measured) {
    this.measured = measured;
  }

  /** The datastore's service time of one I/O of {@code bytes} in {@code bin}, microseconds. */
  double datastore(boolean write, int bin, double bytes) {
    int series = write ? MeasuredLatency.DATASTORE_WRITE : MeasuredLatency.DATASTORE_READ;
    return measuredAt(series, bin) ? measured.meanMicros(series, bin) : LatencyModel.DATASTORE.micros(bytes);
  }

  /** A peer's service time of one replicated write of {@code bytes} in {@code bin}, microseconds. */
  double peer(int bin, double bytes) {
    return measuredAt(MeasuredLatency.PEER_WRITE, bin) ? measured.meanMicros(MeasuredLatency.PEER_WRITE, bin)
        : LatencyModel.PEER.micros(bytes);
  }

  /** Whether a peer's service time in {@code bin} is the measured one. */
  boolean peerMeasured(int bin) {
    return measuredAt(MeasuredLatency.PEER_WRITE, bin);
  }

  /** The share of {@code io}'s I/Os (0..1) whose datastore service time is measured. */
  double datastoreMeasuredShare(IoProfile io) {
    double measuredOps = 0;
    for (int b = 0; b < IoLengthBins.COUNT; b++) {
      measuredOps += (measuredAt(MeasuredLatency.DATASTORE_READ, b) ? io.readOps[b] : 0)
          + (measuredAt(MeasuredLatency.DATASTORE_WRITE, b) ? io.writeOps[b] : 0);
    }
    double ops = IoProfile.sum(io.readOps) + IoProfile.sum(io.writeOps);
    return ops > 0 ? measuredOps / ops : 0;
  }

  /** The share of {@code io}'s writes (0..1) whose peer service time is measured. */
  double peerMeasuredShare(IoProfile io) {
    double measuredOps = 0;
    for (int b = 0; b < IoLengthBins.COUNT; b++) {
      measuredOps += measuredAt(MeasuredLatency.PEER_WRITE, b) ? io.writeOps[b] : 0;
    }
    double writes = IoProfile.sum(io.writeOps);
    return writes > 0 ? measuredOps / writes : 0;
  }

  private boolean measuredAt(int series, int bin) {
    return measured != null && measured.ops(series, bin) >= MIN_MEASURED_OPS;
  }
}
