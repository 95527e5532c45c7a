package io.tierwise.jobs.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * The real block I/O streams the per-policy tests run on (issue 15): the CloudPhysics vscsi trace,
 * MSR hm_0, both SYSTOR '17 samples and the ten busiest Tencent CBS volumes by 4 KiB block
 * references, all from {@link Repo#traces()}.
 */
public final class RealTraces {
  private static final int BLOCK = 4096;
  private static final int TENCENT_VOLUMES = 10;
  private static final String TENCENT = "tencent_cbs_sample50k.csv.bz2";

  private RealTraces() {}

  /** One volume's stream: a trace file and, in a trace of several volumes, the volume (else null). */
  public record Stream(String file, String volume) {
    /** The trace's path. */
    public Path trace() {
      return Repo.traces().resolve(file);
    }

    /** "file" or "file volume", for reports. */
    public String label() {
      return volume == null ? file : file + " " + volume;
    }
  }

  /** Every stream, in the order above. */
  public static List<Stream> all() throws Exception {
    List<Stream> streams = new ArrayList<>();
    for (String file : List.of("cloudphysics_w_sample.vscsi", "msr_hm_0_sample1000.csv",
        "systor17_lun0_sample_a.csv.gz", "systor17_lun0_sample_b.csv.gz")) {
      streams.add(new Stream(file, null));
    }
    for (String volume : busiestTencentVolumes(Repo.traces().resolve(TENCENT))) {
      streams.add(new Stream(TENCENT, volume));
    }
    for (Stream s : streams) {
      if (!Files.isRegularFile(s.trace())) {
        throw new AssertionError(s.trace() + " is missing: the shared traces (TIERWISE_TRACES_DIR) are needed");
      }
    }
    return streams;
  }

  /**
   * The Tencent volumes with the most 4 KiB block references (fields Timestamp, Offset, Size,
   * IOType, VolumeID; Offset and Size in 512-byte sectors), ties by volume id; named as the agent
   * names them, cbs-ID.
   */
  private static List<String> busiestTencentVolumes(Path trace) throws Exception {
    Map<Long, Long> refs = new HashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new BZip2CompressorInputStream(Files.newInputStream(trace)), StandardCharsets.US_ASCII))) {
      for (String line; (line = in.readLine()) != null; ) {
        String[] f = line.split(",");
        long offset = Long.parseLong(f[1]) * 512;
        long length = Long.parseLong(f[2]) * 512;
        refs.merge(Long.parseLong(f[4]), (offset + length - 1) / BLOCK - offset / BLOCK + 1, Long::sum);
      }
    }
    return refs.entrySet().stream()
        .sorted(Comparator.comparing(Map.Entry<Long, Long>::getValue).reversed().thenComparing(Map.Entry::getKey))
        .limit(TENCENT_VOLUMES).map(e -> "cbs-" + e.getKey()).toList();
  }
}
