package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * One reference stream's SHARDS estimators over the windows of DESIGN section 6: the last 1 h,
 * 24 h and 7 d, and 'all' (everything since the stream (re)started).
 *
 * <p>Sliding windows from panes (the "panes" of Li et al., "No pane, no gain", SIGMOD Record
 * 34(1), 2005): a window of length W starts a fresh estimator every W / {@value #PANES} of
 * reference time (event time: the references' own timestamps) and drops one once it is older than
 * W, so {@value #PANES} estimators are live and the oldest covers between 3W/4 and W of the most
 * recent references; that one is reported. The estimator of 'all' receives the agent's stream
 * totals (considered references, distinct-block sketch); the pane estimators cannot (the sketch
 * updates are register rises since the stream's start, meaningless for a pane that starts later),
 * so they normalise by the references their sample stands for and scale the working set by
 * {@code 1/R} (classic SHARDS). Memory: 1 + 3 x {@value #PANES} = 13 estimators, each bounded with
 * fixed-size SHARDS ({@link #stateBytes}).
 *
 * <p>A volume's or a shared tier's stream ({@link #withPolicies}) also runs {@link MiniatureSimulations} of every eviction
 * policy over everything since the stream started, on {@link #POLICY_GRID}: each window's curve of
 * a policy is that window's LRU curve plus the policy's difference from LRU there
 * ({@link #evictionMissRatios}). Not thread-safe.
 */
public final class WindowedEstimators implements BinaryStateSerializer.State<WindowedEstimators> {
  /** A sliding window: its name in volume_working_sets.window_name and its length, seconds. */
  public record Window(String name, long seconds) {}

  /** The sliding windows, shortest first. */
  public static final List<Window> SLIDING = List.of(new Window("1h", 3600), new Window("24h", 86_400),
      new Window("7d", 7 * 86_400));
  /** Name of the window of everything received. */
  public static final String ALL = "all";
  /** Estimators per sliding window. */
  public static final int PANES = 4;
  private static final int STATE_FORMAT = 2;
  /**
   * The cache sizes the eviction policies are simulated at: {@link MissRatioCurve#cacheSizeGrid}'s
   * steps from 4 MiB to 64 GiB (a window's grid is a prefix of them up to 32 GiB of working set).
   */
  public static final long[] POLICY_GRID = MissRatioCurve.cacheSizeGrid(32 * MissRatioCurve.GIB);
  private static final int[] NO_UPDATES = new int[0];

  /** A window's result: the estimator and the time span of the references it has seen. */
  public record Result(String window, MrcEstimator estimator, long startUnixNano, long endUnixNano) {}

  private static final class Pane {
    final long startUnixNano;
    final MrcEstimator estimator;
    long firstUnixNano;
    long lastUnixNano;

    Pane(long startUnixNano, MrcEstimator estimator) {
      this.startUnixNano = startUnixNano;
      this.estimator = estimator;
    }
  }

  private final MrcEstimators factory;
  private final long modulus;
  private long threshold;
  private final Pane all;
  private final List<ArrayDeque<Pane>> panes = new ArrayList<>();
  /** Every eviction policy simulated over the stream; null when built without ({@link #simulatesPolicies}). */
  private final MiniatureSimulations policies;

  /** Empty estimators for the agent's {@code P} and {@code T} (unsigned), without policy simulations (LRU alone). */
  public WindowedEstimators(MrcEstimators factory, long modulus, long threshold) {
    this(factory, modulus, threshold, new Pane(0, factory.create(modulus, threshold)), null);
  }

  /** Empty estimators of a volume's or a shared tier's stream, with every eviction policy simulated ({@link #evictionMissRatios}). */
  public static WindowedEstimators withPolicies(MrcEstimators factory, long modulus, long threshold) {
    return new WindowedEstimators(factory, modulus, threshold, new Pane(0, factory.create(modulus, threshold)),
        new MiniatureSimulations(List.of(EvictionPolicy.values()), POLICY_GRID, modulus, threshold,
            MiniatureSimulations.DEFAULT_MAX_BLOCKS));
  }

  private WindowedEstimators(MrcEstimators factory, long modulus, long threshold, Pane all,
      MiniatureSimulations policies) {
    this.factory = factory;
    this.modulus = modulus;
    this.threshold = threshold;
    this.all = all;
    this.policies = policies;
    for (int i = 0; i < SLIDING.size(); i++) {
      panes.add(new ArrayDeque<>());
    }
  }

  /** The agent's {@code P}. */
  public long modulus() {
    return modulus;
  }

  /** The agent's {@code T}. */
  public long threshold() {
    return threshold;
  }

  /**
   * Follows the agent's lower threshold (its bounded sample) without restarting: every fixed-size
   * estimator evicts the blocks at or above it ({@link ShardsFixedSize#lowerThreshold}), and new
   * panes start from it.
   *
   * @throws IllegalStateException when the estimators are fixed-rate (they must restart instead)
   */
  public void lowerThreshold(long lowered) {
    if (!(all.estimator instanceof ShardsFixedSize)) {
      throw new IllegalStateException("fixed-rate SHARDS cannot follow a lower threshold; restart it");
    }
    threshold = lowered;
    if (policies != null) {
      policies.followAgentThreshold(lowered);
    }
    ((ShardsFixedSize) all.estimator).lowerThreshold(lowered);
    for (ArrayDeque<Pane> window : panes) {
      for (Pane p : window) {
        ((ShardsFixedSize) p.estimator).lowerThreshold(lowered);
      }
    }
  }

  /** Whether {@link #lowerThreshold} applies (fixed-size estimators). */
  public boolean followsLowerThreshold() {
    return all.estimator instanceof ShardsFixedSize;
  }

  /** The estimator of 'all'. */
  public MrcEstimator all() {
    return all.estimator;
  }

  /**
   * Adds a batch's stream totals: all of them to 'all', the considered references alone to the
   * live panes (see class doc).
   */
  public void addStreamTotals(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    addStreamTotals(0, consideredReferences, hllPrecision, hllUpdates);
  }

  /** The batch's LRU anchor, to 'all' alone (the panes have no stream totals; see class doc). */
  public void addLruAnchor(long hits, int blocks) {
    all.estimator.addLruAnchor(hits, blocks);
  }

  /** The same for part {@code part} of a merged stream ({@link MrcEstimator#addStreamTotals(int, long, int, int[])}). */
  public void addStreamTotals(int part, long consideredReferences, int hllPrecision, int[] hllUpdates) {
    all.estimator.addStreamTotals(part, consideredReferences, hllPrecision, hllUpdates);
    for (ArrayDeque<Pane> window : panes) {
      for (Pane p : window) {
        p.estimator.addStreamTotals(part, consideredReferences, 0, NO_UPDATES);
      }
    }
  }

  /**
   * Processes one sampled reference, in time order.
   *
   * @param blockHash {@code H(L)}
   * @param write true for a write
   * @param timeUnixNano the reference's time, Unix epoch nanoseconds, non-decreasing
   */
  public void reference(long blockHash, boolean write, long timeUnixNano) {
    touch(all, timeUnixNano);
    all.estimator.reference(blockHash, write);
    if (policies != null) {
      policies.reference(blockHash, write);
    }
    for (int w = 0; w < SLIDING.size(); w++) {
      ArrayDeque<Pane> window = roll(w, timeUnixNano);
      for (Pane p : window) {
        touch(p, timeUnixNano);
        p.estimator.reference(blockHash, write);
      }
    }
  }

  private static void touch(Pane p, long timeUnixNano) {
    if (p.firstUnixNano == 0) {
      p.firstUnixNano = timeUnixNano;
    }
    p.lastUnixNano = timeUnixNano;
  }

  /** Starts the pane of {@code now} when due and drops the panes older than the window. */
  private ArrayDeque<Pane> roll(int w, long now) {
    long length = SLIDING.get(w).seconds() * 1_000_000_000L;
    long hop = length / PANES;
    long start = Math.floorDiv(now, hop) * hop;
    ArrayDeque<Pane> window = panes.get(w);
    if (window.isEmpty() || window.peekLast().startUnixNano < start) {
      window.addLast(new Pane(start, factory.create(modulus, threshold)));
    }
    while (window.peekFirst().startUnixNano < now - length) {
      window.removeFirst();
    }
    return window;
  }

  /**
   * 'all', then each sliding window's oldest live pane (windows without references are left out).
   * A window that has not slid yet (its oldest pane saw the stream's first reference, so it holds
   * every reference 'all' holds) reports 'all''s estimator: the same references, counted with the
   * agent's stream totals and LRU anchor, which the panes lack (class doc).
   */
  public List<Result> results() {
    List<Result> out = new ArrayList<>();
    out.add(new Result(ALL, all.estimator, all.firstUnixNano, all.lastUnixNano));
    for (int w = 0; w < SLIDING.size(); w++) {
      Pane oldest = panes.get(w).peekFirst();
      if (oldest != null && oldest.estimator.references() > 0) {
        MrcEstimator estimator = oldest.firstUnixNano == all.firstUnixNano ? all.estimator : oldest.estimator;
        out.add(new Result(SLIDING.get(w).name(), estimator, oldest.firstUnixNano, all.lastUnixNano));
      }
    }
    return out;
  }

  /** Whether every eviction policy is simulated (a volume's stream). */
  public boolean simulatesPolicies() {
    return policies != null;
  }

  /**
   * Each simulated policy's miss ratios at the sizes of {@code lru}: {@code lru}'s ratios (a
   * window's LRU curve, all references or reads only) plus the policy's difference from LRU at
   * each size ({@link MiniatureSimulations#difference}), clipped to [cold-miss ratio, 1]: no policy
   * misses less than the first references, {@code lru}'s last point (the grid ends past twice the
   * working set). LRU's row is {@code lru}'s own. Rows in {@link EvictionPolicy} order.
   *
   * @throws IllegalStateException for estimators without simulations
   */
  public double[][] evictionMissRatios(MissRatioCurve lru, boolean readsOnly) {
    if (policies == null) {
      throw new IllegalStateException("these estimators simulate no eviction policy (LRU alone)");
    }
    EvictionPolicy[] kinds = EvictionPolicy.values();
    double[][] out = new double[kinds.length][lru.size()];
    for (int p = 0; p < kinds.length; p++) {
      for (int i = 0; i < lru.size(); i++) {
        out[p][i] = evictionMissRatio(kinds[p], lru.cacheBytes(i), lru.missRatio(i), lru.missRatio(lru.size() - 1),
            readsOnly);
      }
    }
    return out;
  }

  /**
   * A policy's miss ratio at any size, given the LRU miss ratio there and the cold-miss ratio (the
   * LRU curve's floor): as {@link #evictionMissRatios}.
   *
   * @throws IllegalStateException for estimators without simulations
   */
  public double evictionMissRatio(EvictionPolicy policy, long cacheBytes, double lruMissRatio, double coldMissRatio,
      boolean readsOnly) {
    if (policies == null) {
      throw new IllegalStateException("these estimators simulate no eviction policy (LRU alone)");
    }
    return EvictionDifferences.fromLru(policy, lruMissRatio, coldMissRatio,
        () -> policies.difference(policy, cacheBytes, readsOnly));
  }

  /**
   * Every policy's difference from LRU on the simulations' grid, apart from the simulations: {@link
   * EvictionDifferences#missRatio} gives what {@link #evictionMissRatio} gives now.
   *
   * @throws IllegalStateException for estimators without simulations
   */
  public EvictionDifferences evictionDifferences() {
    if (policies == null) {
      throw new IllegalStateException("these estimators simulate no eviction policy (LRU alone)");
    }
    return policies.differences();
  }

  /** Bytes of the serialised state of every estimator: the checkpoint size of one volume. */
  public long stateBytes() {
    long bytes = all.estimator.stateBytes() + 1 + (policies == null ? 0 : policies.serializedBytes());
    for (ArrayDeque<Pane> window : panes) {
      for (Pane p : window) {
        bytes += 24 + p.estimator.stateBytes();
      }
    }
    return bytes;
  }

  /** An independent deep copy. */
  @Override
  public WindowedEstimators copy() {
    WindowedEstimators c = new WindowedEstimators(factory, modulus, threshold, copyOf(all),
        policies == null ? null : policies.copy());
    for (int w = 0; w < panes.size(); w++) {
      for (Pane p : panes.get(w)) {
        c.panes.get(w).addLast(copyOf(p));
      }
    }
    return c;
  }

  private static Pane copyOf(Pane p) {
    Pane c = new Pane(p.startUnixNano, p.estimator.copy());
    c.firstUnixNano = p.firstUnixNano;
    c.lastUnixNano = p.lastUnixNano;
    return c;
  }

  /** Writes the format, the factory, P, T, every pane, and the policy simulations when there are. */
  @Override
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeUTF(factory.method());
    out.writeInt(factory.maxSamples());
    out.writeLong(modulus);
    out.writeLong(threshold);
    writePane(all, out);
    for (ArrayDeque<Pane> window : panes) {
      out.writeInt(window.size());
      for (Pane p : window) {
        writePane(p, out);
      }
    }
    out.writeBoolean(policies != null);
    if (policies != null) {
      policies.writeTo(out);
    }
  }

  private static void writePane(Pane p, DataOutputView out) throws IOException {
    out.writeLong(p.startUnixNano);
    out.writeLong(p.firstUnixNano);
    out.writeLong(p.lastUnixNano);
    MrcEstimators.write(p.estimator, out);
  }

  /**
   * Reads estimators written by {@link #writeTo}.
   *
   * @throws IOException on a read error or an inconsistent state
   */
  public static WindowedEstimators readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT) {
      throw new IOException("windowed SHARDS state format " + format + " is not " + STATE_FORMAT);
    }
    MrcEstimators factory;
    try {
      factory = new MrcEstimators(in.readUTF(), in.readInt());
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent windowed SHARDS state: " + e.getMessage(), e);
    }
    long modulus = in.readLong();
    long threshold = in.readLong();
    Pane all = readPane(in);
    List<ArrayDeque<Pane>> windows = new ArrayList<>();
    for (int w = 0; w < SLIDING.size(); w++) {
      ArrayDeque<Pane> window = new ArrayDeque<>();
      for (int n = in.readInt(); n > 0; n--) {
        window.addLast(readPane(in));
      }
      windows.add(window);
    }
    MiniatureSimulations policies = in.readBoolean() ? MiniatureSimulations.readFrom(in) : null;
    WindowedEstimators w = new WindowedEstimators(factory, modulus, threshold, all, policies);
    for (int i = 0; i < windows.size(); i++) {
      w.panes.get(i).addAll(windows.get(i));
    }
    return w;
  }

  private static Pane readPane(DataInputView in) throws IOException {
    long start = in.readLong();
    long first = in.readLong();
    long last = in.readLong();
    Pane p = new Pane(start, MrcEstimators.read(in));
    p.firstUnixNano = first;
    p.lastUnixNano = last;
    return p;
  }
}
