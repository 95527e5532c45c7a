package io.tierwise.jobs.bench;

import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.AgentTelemetry;
import io.tierwise.jobs.testing.RealTraces;
import io.tierwise.proto.v1.IngestRecord;
import io.tierwise.proto.v1.ReferenceBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The input of the rescale check (stream-jobs/scripts/rescale-check.sh), the same bytes on every
 * call with the same arguments: six volumes in two clusters and three hosts, each with
 * {@value #INTERVALS_PER_HALF} agent-shaped metrics intervals per half ({@link AgentTelemetry})
 * and the real agent's sampled reference batches of a real trace ({@code tierwise-agent
 * sample-refs}, {@link RescaleRefs}), written to telemetry.metrics.v1 / telemetry.refs.v1 keyed
 * "tenant/volume" as ingest writes them.
 *
 * <p>Parts: {@code metrics-1}, {@code prime} (every volume's first batch, so every shared tier
 * knows all its volumes before any of them runs ahead), {@code refs-1} (the rest of the first
 * half), {@code metrics-2}, {@code refs-2}; reference batches go in rounds, one batch of every
 * volume each, {@value #ROUND_PAUSE_MILLIS} ms apart.
 *
 * <p>Args: {@code <tenant> <t0 Unix seconds> <part>}; TIERWISE_KAFKA_BROKERS as infra/local/env.sh.
 */
public final class RescaleInput {
  /** Metrics intervals (10 s) per volume and half. */
  static final int INTERVALS_PER_HALF = 30;
  private static final String KEY = "7e1e5ca1e0000000000000000000c0de";
  /**
   * Pause between two rounds of reference batches: longer than the jobs' flush delay, so each
   * volume's batch of a round is processed and emitted apart from the next round's. The estimates a
   * recommendation follows are then the same in every run; sent at once, how many batches one
   * processing-time flush covers would vary, and with it which estimate last changed the
   * recommendation materially (RecommendFunction), so the rows kept would too.
   */
  static final long ROUND_PAUSE_MILLIS = 3000;

  /** One volume: ids and the trace its references come from, at an agent sampling rate. */
  record Volume(String id, String cluster, String host, RealTraces.Stream stream, double rate) {}

  private RescaleInput() {}

  /** The volumes: CloudPhysics w, MSR hm_0, both SYSTOR samples, the two busiest Tencent volumes. */
  static List<Volume> volumes() throws Exception {
    List<RealTraces.Stream> s = RealTraces.all();
    return List.of(new Volume("rs-vol-0", "rs-cluster-a", "rs-host-1", s.get(0), 0.05),
        new Volume("rs-vol-1", "rs-cluster-a", "rs-host-1", s.get(1), 1),
        new Volume("rs-vol-2", "rs-cluster-a", "rs-host-2", s.get(2), 1),
        new Volume("rs-vol-3", "rs-cluster-b", "rs-host-2", s.get(3), 1),
        new Volume("rs-vol-4", "rs-cluster-b", "rs-host-3", s.get(4), 1),
        new Volume("rs-vol-5", "rs-cluster-b", "rs-host-3", s.get(5), 1));
  }

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: RescaleInput <tenant> <t0 unix s> metrics-1|prime|refs-1|metrics-2|refs-2");
    }
    String tenant = args[0];
    long t0 = Long.parseLong(args[1]) * 1_000_000_000L;
    List<List<ProducerRecord<String, byte[]>>> rounds = switch (args[2]) {
      case "metrics-1" -> List.of(metrics(tenant, t0, 0));
      case "metrics-2" -> List.of(metrics(tenant, t0, 1));
      case "prime" -> refs(tenant, t0, 0, 1);
      case "refs-1" -> refs(tenant, t0, 1, -1);
      case "refs-2" -> refs(tenant, t0, -1, Integer.MAX_VALUE);
      default -> throw new IllegalArgumentException("unknown part " + args[2]);
    };
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, System.getenv("TIERWISE_KAFKA_BROKERS"));
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < rounds.size(); i++) {
        if (i > 0) {
          Thread.sleep(ROUND_PAUSE_MILLIS);
        }
        for (ProducerRecord<String, byte[]> r : rounds.get(i)) {
          producer.send(r).get();
        }
      }
    }
    System.out.printf("rescale input: %s: %d records in %d rounds%n", args[2],
        rounds.stream().mapToInt(List::size).sum(), rounds.size());
  }

  /** Half {@code half}'s metrics intervals of every volume, interval by interval. */
  private static List<ProducerRecord<String, byte[]>> metrics(String tenant, long t0, int half) throws Exception {
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
    List<Volume> volumes = volumes();
    for (int n = half * INTERVALS_PER_HALF; n < (half + 1) * INTERVALS_PER_HALF; n++) {
      for (int v = 0; v < volumes.size(); v++) {
        Volume vol = volumes.get(v);
        var interval = AgentTelemetry.busyInterval(t0 + n * 10_000_000_000L, new Random(31L * n + v));
        var request = AgentTelemetry.request(vol.cluster(), vol.host(), vol.id(), interval);
        out.add(record("telemetry.metrics.v1", tenant, vol.id(), "rs-metrics-" + v + "-" + n, request.toByteString()));
      }
    }
    return out;
  }

  /**
   * Reference batches {@code from} (inclusive) to {@code to} (exclusive) of every volume in rounds
   * (batch 0 of every volume, then batch 1, ...); -1 stands for the first batch of the second half.
   */
  private static List<List<ProducerRecord<String, byte[]>>> refs(String tenant, long t0, int from, int to) throws Exception {
    List<Volume> volumes = volumes();
    AgentReferenceSource agent = new AgentReferenceSource(AgentReferenceSource.defaultBinary());
    List<List<ReferenceBatch>> sampled = new ArrayList<>();
    for (Volume v : volumes) {
      sampled.add(agent.sample(v.stream().trace(), KEY, v.rate(), v.stream().volume()));
    }
    List<List<ReferenceBatch>> batches = RescaleRefs.arrange(volumes, sampled, t0);
    List<List<ProducerRecord<String, byte[]>>> out = new ArrayList<>();
    for (int round = 0; ; round++) {
      List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
      for (int v = 0; v < volumes.size(); v++) {
        List<ReferenceBatch> b = batches.get(v);
        int lo = from < 0 ? b.size() / 2 : from;
        int hi = to < 0 ? b.size() / 2 : Math.min(to, b.size());
        if (lo + round < hi) {
          ReferenceBatch batch = b.get(lo + round);
          records.add(record("telemetry.refs.v1", tenant, batch.getVolumeId(), batch.getBatchId(), batch.toByteString()));
        }
      }
      if (records.isEmpty()) {
        return out;
      }
      out.add(records);
    }
  }

  private static ProducerRecord<String, byte[]> record(String topic, String tenant, String volume, String batchId,
      com.google.protobuf.ByteString payload) {
    IngestRecord r = IngestRecord.newBuilder().setTenantId(tenant).setBatchId(batchId).setPayload(payload).build();
    return new ProducerRecord<>(topic, tenant + "/" + volume, r.toByteArray());
  }
}
