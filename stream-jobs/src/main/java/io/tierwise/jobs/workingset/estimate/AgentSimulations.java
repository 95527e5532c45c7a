package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The agent's miniature simulations of the engine's eviction policies (Waldspurger, Saemundsson,
 * Ahmad, Park, USENIX ATC 2017), added up over a volume's stream: per cache size the weighted
 * references and each policy's weighted misses, all and reads only, from every {@link
 * MiniatureBatch} since the stream started (the agent's tiers stay warm across batches, so the
 * sums are its simulations' counts over the stream). A reference sampled at {@code T_C} weighs
 * {@code P / T_C} (SHARDS section 4.2's rescaling), as in the service's own {@link
 * MiniatureSimulations}, whose differences these replace for a volume whose agent simulates: the
 * prediction is then the cache that runs, not a mirror of it (docs/analytics.md, "Every policy's
 * miss ratio curve"). State: a few hundred numbers, whatever the volume's size. Not thread-safe.
 */
public final class AgentSimulations implements PolicySimulations {
  private static final int STATE_FORMAT = 1;
  private static final int POLICIES = EvictionPolicy.values().length;
  private static final int LRU = EvictionPolicy.LRU.ordinal();

  /** One size's sums. */
  private static final class Size {
    double references;
    double readReferences;
    final double[] misses = new double[POLICIES];
    final double[] readMisses = new double[POLICIES];
  }

  private final long modulus;
  private final TreeMap<Long, Size> sizes = new TreeMap<>();

  /**
   * No simulation counted yet, for the agent's {@code P}.
   *
   * @throws IllegalArgumentException when {@code P = 0}
   */
  public AgentSimulations(long modulus) {
    if (modulus == 0) {
      throw new IllegalArgumentException("SHARDS modulus must be > 0");
    }
    this.modulus = modulus;
  }

  /** Adds one batch's simulations (validated by the parser: thresholds in 1..P, counts consistent). */
  public void add(MiniatureBatch batch) {
    for (int i = 0; i < batch.size(); i++) {
      Size s = sizes.computeIfAbsent(batch.cacheBytes[i], bytes -> new Size());
      double weight = 1 / SamplingRate.of(modulus, batch.thresholds[i]);
      s.references += weight * batch.references[i];
      s.readReferences += weight * batch.readReferences[i];
      for (int p = 0; p < POLICIES; p++) {
        s.misses[p] += weight * batch.misses[i][p];
        s.readMisses[p] += weight * batch.readMisses[i][p];
      }
    }
  }

  @Override
  public double difference(EvictionPolicy policy, long cacheBytes, boolean readsOnly) {
    return differences().difference(policy, cacheBytes, readsOnly);
  }

  @Override
  public EvictionDifferences differences() {
    EvictionDifferences d = new EvictionDifferences();
    d.policies = Arrays.stream(EvictionPolicy.values()).map(EvictionPolicy::name).toArray(String[]::new);
    d.cacheBytes = sizes.keySet().stream().mapToLong(Long::longValue).toArray();
    d.differences = new double[POLICIES][d.cacheBytes.length];
    d.readDifferences = new double[POLICIES][d.cacheBytes.length];
    int i = 0;
    for (Size s : sizes.values()) {
      for (int p = 0; p < POLICIES; p++) {
        d.differences[p][i] = difference(s, p, false);
        d.readDifferences[p][i] = difference(s, p, true);
      }
      i++;
    }
    return d;
  }

  private static double difference(Size s, int p, boolean readsOnly) {
    double references = readsOnly ? s.readReferences : s.references;
    if (references == 0) {
      return 0;
    }
    return ((readsOnly ? s.readMisses[p] : s.misses[p]) - (readsOnly ? s.readMisses[LRU] : s.misses[LRU])) / references;
  }

  @Override
  public AgentSimulations copy() {
    AgentSimulations c = new AgentSimulations(modulus);
    for (Map.Entry<Long, Size> e : sizes.entrySet()) {
      Size s = e.getValue();
      Size t = new Size();
      t.references = s.references;
      t.readReferences = s.readReferences;
      System.arraycopy(s.misses, 0, t.misses, 0, POLICIES);
      System.arraycopy(s.readMisses, 0, t.readMisses, 0, POLICIES);
      c.sizes.put(e.getKey(), t);
    }
    return c;
  }

  /** Writes format, P, the policies' count, and per size its bytes and sums. */
  @Override
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeLong(modulus);
    out.writeInt(POLICIES);
    out.writeInt(sizes.size());
    for (Map.Entry<Long, Size> e : sizes.entrySet()) {
      Size s = e.getValue();
      out.writeLong(e.getKey());
      out.writeDouble(s.references);
      out.writeDouble(s.readReferences);
      for (int p = 0; p < POLICIES; p++) {
        out.writeDouble(s.misses[p]);
        out.writeDouble(s.readMisses[p]);
      }
    }
  }

  /**
   * Reads a state written by {@link #writeTo}.
   *
   * @throws IOException on a read error, another format, or another count of policies
   */
  public static AgentSimulations readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT) {
      throw new IOException("agent simulations state format " + format + " is not " + STATE_FORMAT);
    }
    long modulus = in.readLong();
    int policies = in.readInt();
    int count = in.readInt();
    if (modulus == 0 || policies != POLICIES || count < 0) {
      throw new IOException("inconsistent agent simulations state: P " + modulus + ", " + policies + " policies, "
          + count + " sizes");
    }
    AgentSimulations a = new AgentSimulations(modulus);
    for (int i = 0; i < count; i++) {
      long bytes = in.readLong();
      Size s = new Size();
      s.references = in.readDouble();
      s.readReferences = in.readDouble();
      for (int p = 0; p < POLICIES; p++) {
        s.misses[p] = in.readDouble();
        s.readMisses[p] = in.readDouble();
      }
      a.sizes.put(bytes, s);
    }
    return a;
  }

  @Override
  public long serializedBytes() {
    return 4 + 8 + 4 + 4 + sizes.size() * (8L + 16 + 16L * POLICIES);
  }
}
