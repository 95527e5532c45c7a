package io.tierwise.jobs.recommend;

import io.tierwise.jobs.workingset.estimate.IoProfile;

/**
 * What a tier does for a volume's I/O mix ({@link IoProfile}) given its hit ratios: I/Os and
 * bytes kept from the datastore, the mean VM-observed latency (a read hit costs the tier's
 * {@link LatencyModel}, a read miss the datastore, a write-through write the datastore, a
 * write-back write the tier and its peer replicas in parallel, the slower of the two; datastore
 * and peer as {@link ServiceTimes}: measured where the agent measured) and the bytes it writes
 * to its device per day ({@link TierWrites}). One computation for the recommendation and for
 * every what-if (size, eviction policy) beside it.
 */
final class TierEffect {
  /** A tier's predicted effect: per second over the window; latency in microseconds. */
  record Prediction(double offloadedIops, double offloadedBytesPerSecond, double latencyMicros,
      double tierWriteBytesPerDay) {}

  private final IoProfile io;
  private final ServiceTimes times;
  private final double readOps;
  private final double writeOps;
  private final double readLatency;
  private final double writeLatency;
  private final double seconds;
  private final TierWrites writeThroughWrites;
  private final TierWrites writeBackWrites;

  TierEffect(IoProfile io, ServiceTimes times) {
    this.io = io;
    this.times = times;
    this.readOps = IoProfile.sum(io.readOps);
    this.writeOps = IoProfile.sum(io.writeOps);
    this.readLatency = datastoreLatency(io.readOps, io.readBytes, false, 0);
    this.writeLatency = datastoreLatency(io.writeOps, io.writeBytes, true, 0);
    this.seconds = io.seconds();
    this.writeThroughWrites = TierWrites.of(io, false);
    this.writeBackWrites = TierWrites.of(io, true);
  }

  /** I/Os of the window. */
  double ops() {
    return readOps + writeOps;
  }

  /** Share of the I/Os that are reads, 0..1. */
  double readShare() {
    return readOps / ops();
  }

  /** Summed datastore latency of the reads, microseconds. */
  double readLatency() {
    return readLatency;
  }

  /** Summed datastore latency of the writes, microseconds. */
  double writeLatency() {
    return writeLatency;
  }

  /** Mean VM-observed latency without a tier (every I/O to the datastore), microseconds. */
  double datastoreLatencyMicros() {
    return (readLatency + writeLatency) / ops();
  }

  /**
   * The effect of a tier on {@code device} whose reads hit {@code readHit} of their block
   * references and, in write-back, all references {@code allHit} (write hits: overwrites of cached
   * blocks, all hits less read hits by reference).
   */
  Prediction at(double readHit, double allHit, boolean writeBack, LatencyModel device, int replicas) {
    double readShare = readShare();
    double writeHit = writeBack && readShare < 1
        ? Math.max(0, Math.min(1, (allHit - readHit * readShare) / (1 - readShare))) : 0;
    double offloadedIops = (readOps * readHit + writeOps * writeHit) / seconds;
    double offloadedBytes = (IoProfile.sum(io.readBytes) * readHit + IoProfile.sum(io.writeBytes) * writeHit) / seconds;
    double reads = readHit * tierLatency(io.readOps, io.readBytes, device, 0) + (1 - readHit) * readLatency;
    double writes = writeBack ? tierLatency(io.writeOps, io.writeBytes, device, replicas) : writeLatency;
    return new Prediction(offloadedIops, offloadedBytes, (reads + writes) / ops(),
        (writeBack ? writeBackWrites : writeThroughWrites).bytesPerDay(1 - readHit));
  }

  /**
   * Summed latency of the I/Os of every bin on the tier's {@code device}, microseconds; with
   * {@code replicas} a peer copy in parallel (the slower of device and peer).
   */
  private double tierLatency(double[] ops, double[] bytes, LatencyModel device, int replicas) {
    double sum = 0;
    for (int b = 0; b < ops.length; b++) {
      if (ops[b] > 0) {
        double size = bytes[b] / ops[b];
        double t = device.micros(size);
        sum += ops[b] * (replicas > 0 ? Math.max(t, times.peer(b, size)) : t);
      }
    }
    return sum;
  }

  /** Summed datastore latency of the I/Os of the bins {@code from} and above, microseconds. */
  double datastoreLatency(double[] ops, double[] bytes, boolean write, int from) {
    double sum = 0;
    for (int b = from; b < ops.length; b++) {
      if (ops[b] > 0) {
        sum += ops[b] * times.datastore(write, b, bytes[b] / ops[b]);
      }
    }
    return sum;
  }
}
