package io.tierwise.jobs.recommend;

/**
 * Service time of one I/O on a device: {@code baseMicros + bytes / bytesPerMicro} microseconds
 * (a fixed access latency plus transfer at the device's bandwidth; bytes per microsecond equal
 * MB/s). The constants are assumptions, stored with every recommendation's inputs: the tier's
 * always, the datastore's and the peers' where the agent measured nothing ({@link ServiceTimes}).
 *
 * @param name "datastore", "ram", "nvme" or "peer"
 * @param baseMicros access latency, microseconds
 * @param bytesPerMicro bandwidth, bytes per microsecond (= MB/s)
 */
public record LatencyModel(String name, double baseMicros, double bytesPerMicro) {
  /**
   * A networked datastore (all-flash array over iSCSI/NFS, or vSAN): 1 ms per I/O plus 200 MB/s
   * per stream, a typical VM-observed datastore latency (VMware flags sustained latency above
   * 20 ms; healthy all-flash datastores sit around 1 ms).
   */
  public static final LatencyModel DATASTORE = new LatencyModel("datastore", 1000, 200);
  /** The agent's RAM tier: 5 us (user-space lookup and copy) plus 4 GB/s. */
  public static final LatencyModel RAM = new LatencyModel("ram", 5, 4000);
  /**
   * A local data-center NVMe SSD: 90 us plus 2 GB/s (4 KiB random read latency of e.g. the Intel
   * SSD DC P4510 datasheet, 77 us, plus the agent's own path).
   */
  public static final LatencyModel NVME = new LatencyModel("nvme", 90, 2000);
  /** One write-back replica on a peer host: a 10 GbE round trip (60 us) plus 1.25 GB/s. */
  public static final LatencyModel PEER = new LatencyModel("peer", 60, 1250);

  /** Service time of one I/O of {@code bytes} bytes, microseconds. */
  public double micros(double bytes) {
    return baseMicros + bytes / bytesPerMicro;
  }
}
