package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * One reference stream's SHARDS estimates over the windows of DESIGN section 6: the last 1 h,
 * 24 h and 7 d, and 'all' (everything since the stream (re)started), from <b>one sample</b>.
 *
 * <p>'all' is a {@link ShardsEstimator} (fixed size by default): the stream's sample, its LRU
 * stack, the agent's stream totals (considered references, distinct-block sketch) and LRU anchor.
 * Sliding windows from panes (the "panes" of Li et al., "No pane, no gain", SIGMOD Record 34(1),
 * 2005): a window of length W starts a pane every W / {@value #PANES} of reference time (event
 * time: the references' own timestamps) and drops one once it is older than W, so {@value #PANES}
 * panes are live and the oldest covers between 3W/4 and W of the most recent references; that one
 * is reported. A pane ({@link WindowPane}) holds no sample of its own: each sampled reference's
 * stack distance in 'all''s stack, and the epoch of the block's previous access, tell every pane
 * whether it re-references a block of the pane (and at which distance) or is the pane's first
 * reference to it, so a pane costs two distance histograms, not a stack; a pane keeps its share of
 * them, so a reference updates one share per window, not every pane. A pane's sample is
 * therefore 'all''s: about {@code sMax} x (the pane's footprint / the stream's) blocks. The panes
 * cannot use the agent's stream totals (the sketch updates are register rises since the stream's
 * start), so they normalise by the references their sample stands for and scale the working set
 * by {@code 1/R} (classic SHARDS). State: one estimator and 12 panes ({@link #stateBytes}).
 *
 * <p>A volume's or a shared tier's stream ({@link #withPolicies}) also has every eviction policy's
 * difference from LRU over everything since the stream started: each window's curve of a policy is
 * that window's LRU curve plus the policy's difference from LRU there ({@link
 * #evictionMissRatios}). The differences are the agent's own simulations of the engine, added up
 * ({@link AgentSimulations}), from the first batch that carries them ({@link
 * #addAgentSimulations}); until then, and for shared tiers, the service's {@link
 * MiniatureSimulations} of its mirrors on {@link #POLICY_GRID}. A state of the layout before the
 * shared sample (format 2, 13 estimators) is read with 'all' alone: the sliding windows start
 * again.
 *
 * <p>The agent may run the same sample and panes over the references it ships and send each
 * batch's shares ({@link WindowShares}); {@link #addShares} adds them up instead of {@link
 * #reference}, with the same results (docs/analytics.md "Windows on the agent"). Windows take one
 * or the other, and the shares of one agent sample. Not thread-safe.
 */
public final class WindowedEstimators implements BinaryStateSerializer.State<WindowedEstimators> {
  /** A sliding window: its name in volume_working_sets.window_name and its length, seconds. */
  public record Window(String name, long seconds) {}

  /** The sliding windows, shortest first. */
  public static final List<Window> SLIDING = List.of(new Window("1h", 3600), new Window("24h", 86_400),
      new Window("7d", 7 * 86_400));
  /** Name of the window of everything received. */
  public static final String ALL = "all";

  /**
   * Whether {@code window}'s results are written at every coarse write: the shortest sliding
   * window's; the others are the long windows ({@code LongWindowWrites}).
   */
  public static boolean writtenEachCoarseWrite(String window) {
    return window.equals(SLIDING.get(0).name());
  }
  /** Panes per sliding window. */
  public static final int PANES = 4;
  /**
   * 6: 5 and whether the panes are the agent's ({@link #addShares}) and of which sample; 5: one
   * sample, the panes' shares ({@link WindowPane}), the policies' differences tagged by kind; 4
   * (each pane whole) is read as shares; 3 (the service's simulations or none) as 4 was; 2 (13
   * estimators) is read as 'all' alone.
   */
  private static final int STATE_FORMAT = 6;
  /** The tag of the policies' differences since format 4. */
  private static final byte NO_POLICIES = 0;
  private static final byte SERVICE_SIMULATIONS = 1;
  private static final byte AGENT_SIMULATIONS = 2;
  /**
   * The cache sizes the eviction policies are simulated at: {@link MissRatioCurve#cacheSizeGrid}'s
   * steps from 4 MiB to 64 GiB (a window's grid is a prefix of them up to 32 GiB of working set).
   */
  public static final long[] POLICY_GRID = MissRatioCurve.cacheSizeGrid(32 * MissRatioCurve.GIB);

  /** A window's result: its estimate and the time span of the references it has seen. */
  public record Result(String window, MrcEstimate estimator, long startUnixNano, long endUnixNano) {}

  private final MrcEstimators factory;
  private final long modulus;
  private long threshold;
  /** The stream's sample: the estimator of 'all'. */
  private final ShardsEstimator all;
  private long allFirstUnixNano;
  private long allLastUnixNano;
  /** Panes started so far: the epoch the stack marks references with ({@link WindowPane}). */
  private int epoch;
  /**
   * Whether the sample and the panes are the agent's, added up from its shares ({@link
   * #addShares}), rather than simulated here from the references ({@link #reference}).
   */
  private boolean fromShares;
  /** The agent's sample the shares are of ({@link WindowShares#sampleId}), when {@link #fromShares}. */
  private long sampleId;
  /** Each sliding window's live panes, oldest first, as their shares ({@link WindowPane}). */
  private final List<List<WindowPane>> panes = new ArrayList<>();
  /** Every eviction policy's difference from LRU over the stream; null when built without ({@link #simulatesPolicies}). */
  private PolicySimulations policies;
  /** Passes 'all''s sampled references and evictions to each window's panes ({@link WindowPane}). */
  private final ShardsEstimator.SampleObserver paneFeed = new ShardsEstimator.SampleObserver() {
    @Override
    public void sampled(long previous, long marks, double scale, boolean write) {
      // reference() rolls every window first: each has a pane.
      for (List<WindowPane> window : panes) {
        WindowPane.sampled(window, previous, marks, scale, write);
      }
    }

    @Override
    public void evicted(long marks) {
      for (List<WindowPane> window : panes) {
        WindowPane.evicted(window, marks);
      }
    }
  };

  /** Empty estimators for the agent's {@code P} and {@code T} (unsigned), without policy simulations (LRU alone). */
  public WindowedEstimators(MrcEstimators factory, long modulus, long threshold) {
    this(factory, modulus, threshold, factory.create(modulus, threshold), null);
  }

  /** Empty estimators of a volume's or a shared tier's stream, with every eviction policy simulated ({@link #evictionMissRatios}). */
  public static WindowedEstimators withPolicies(MrcEstimators factory, long modulus, long threshold) {
    return new WindowedEstimators(factory, modulus, threshold, factory.create(modulus, threshold),
        new MiniatureSimulations(List.of(EvictionPolicy.values()), POLICY_GRID, modulus, threshold,
            MiniatureSimulations.DEFAULT_MAX_BLOCKS));
  }

  private WindowedEstimators(MrcEstimators factory, long modulus, long threshold, ShardsEstimator all,
      PolicySimulations policies) {
    this.factory = factory;
    this.modulus = modulus;
    this.threshold = threshold;
    this.all = all;
    this.policies = policies;
    for (int i = 0; i < SLIDING.size(); i++) {
      panes.add(new ArrayList<>());
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
   * Follows the agent's lower threshold (its bounded sample) without restarting: the sample
   * evicts the blocks at or above it ({@link ShardsFixedSize#lowerThreshold}), from every pane too.
   *
   * @throws IllegalStateException when the estimators are fixed-rate (they must restart instead)
   */
  public void lowerThreshold(long lowered) {
    if (!followsLowerThreshold()) {
      throw new IllegalStateException("fixed-rate SHARDS cannot follow a lower threshold; restart it");
    }
    threshold = lowered;
    if (policies instanceof MiniatureSimulations service) {
      service.followAgentThreshold(lowered);
    }
    if (!fromShares) {  // the agent's sample follows it itself: its shares hold the evictions
      all.lowerThreshold(lowered, paneFeed);
    }
  }

  /** Whether {@link #lowerThreshold} applies (fixed-size estimators). */
  public boolean followsLowerThreshold() {
    return all instanceof ShardsFixedSize;
  }

  /** The estimator of 'all'. */
  public MrcEstimator all() {
    return all;
  }

  /** Adds a batch's stream totals, to 'all' (see class doc). */
  public void addStreamTotals(long consideredReferences, int hllPrecision, int[] hllUpdates) {
    addStreamTotals(0, consideredReferences, hllPrecision, hllUpdates);
  }

  /** The batch's LRU anchor, to 'all' (the panes have no stream totals; see class doc). */
  public void addLruAnchor(long hits, int blocks) {
    all.addLruAnchor(hits, blocks);
  }

  /** The same for part {@code part} of a merged stream ({@link MrcEstimator#addStreamTotals(int, long, int, int[])}). */
  public void addStreamTotals(int part, long consideredReferences, int hllPrecision, int[] hllUpdates) {
    all.addStreamTotals(part, consideredReferences, hllPrecision, hllUpdates);
  }

  /**
   * Processes one sampled reference, in time order.
   *
   * @param blockHash {@code H(L)}
   * @param write true for a write
   * @param timeUnixNano the reference's time, Unix epoch nanoseconds, non-decreasing
   */
  public void reference(long blockHash, boolean write, long timeUnixNano) {
    if (fromShares) {
      throw new IllegalStateException("these windows add up the agent's shares; they simulate no reference");
    }
    if (allFirstUnixNano == 0) {
      allFirstUnixNano = timeUnixNano;
    }
    allLastUnixNano = timeUnixNano;
    for (int w = 0; w < SLIDING.size(); w++) {
      roll(w, timeUnixNano);
    }
    all.reference(blockHash, write, epoch, paneFeed);
    if (policies instanceof MiniatureSimulations service) {
      service.reference(blockHash, write);
    }
  }

  /**
   * Adds the agent's simulations of one batch (call it before the batch's references): from the
   * first such batch on, the policies' differences are the agent's ({@link AgentSimulations}) and
   * the service's own simulations are dropped.
   *
   * @throws IllegalStateException for estimators without policies ({@link #simulatesPolicies})
   */
  public void addAgentSimulations(MiniatureBatch batch) {
    if (policies == null) {
      throw new IllegalStateException("these estimators simulate no eviction policy (LRU alone)");
    }
    AgentSimulations agent = policies instanceof AgentSimulations a ? a : new AgentSimulations(modulus);
    policies = agent;
    agent.add(batch);
  }

  /**
   * Whether the agent's shares of {@code shares} can be added here: they come from a sample of the
   * same size, and these windows have simulated no reference and added no other sample's shares
   * (empty, or {@link #takesShares} of the same sample).
   */
  public boolean accepts(WindowShares shares) {
    return factory.takesShares(shares.maxSamples)
        && (fromShares ? sampleId == shares.sampleId : epoch == 0 && all.references() == 0);
  }

  /** Whether the windows add up the agent's shares ({@link #addShares}). */
  public boolean takesShares() {
    return fromShares;
  }

  /**
   * Adds one batch's shares ({@link WindowShares}): each of 'all' to the sample's counts, each of a
   * pane to that pane (started when new, from the reference the agent names), then takes the
   * sample's threshold and drops the panes older than their window at the batch's last reference.
   * Equal to {@link #reference} over the batch's references (WorkingSetSharesTest), without a
   * stack.
   *
   * @throws IllegalArgumentException when the shares do not fit ({@link #accepts}) or name a window
   *     that is not one of {@link #SLIDING}
   */
  public void addShares(WindowShares shares) {
    if (!accepts(shares)) {
      throw new IllegalArgumentException("shares of a sample of " + shares.maxSamples + " blocks do not fit these"
          + " windows (" + all.method() + (fromShares ? "" : ", simulating references") + ")");
    }
    fromShares = true;
    sampleId = shares.sampleId;
    for (int i = 0; i < shares.size(); i++) {
      int seconds = shares.windowSeconds[i];
      if (seconds == 0) {
        all.addShare(shares, i);
        if (allFirstUnixNano == 0) {
          allFirstUnixNano = shares.paneFirstUnixNano[i];
        }
      } else {
        pane(slidingIndex(seconds), shares.paneStartUnixNano[i], shares.paneFirstUnixNano[i]).addShare(shares, i);
      }
    }
    all.followShares(shares.samplingThreshold);
    long last = shares.lastReferenceUnixNano;
    if (last != 0) {
      allLastUnixNano = Math.max(allLastUnixNano, last);
      for (int w = 0; w < SLIDING.size(); w++) {
        List<WindowPane> window = panes.get(w);
        long length = SLIDING.get(w).seconds() * 1_000_000_000L;
        while (!window.isEmpty() && window.get(0).startUnixNano < allLastUnixNano - length) {
          window.remove(0);
        }
      }
    }
  }

  /** The index in {@link #SLIDING} of the window of {@code seconds}. */
  private static int slidingIndex(int seconds) {
    for (int w = 0; w < SLIDING.size(); w++) {
      if (SLIDING.get(w).seconds() == seconds) {
        return w;
      }
    }
    throw new IllegalArgumentException("no sliding window of " + seconds + " s");
  }

  /** Window {@code w}'s pane starting at {@code start}, added in start order when new. */
  private WindowPane pane(int w, long start, long firstUnixNano) {
    List<WindowPane> window = panes.get(w);
    int i = window.size();
    while (i > 0 && window.get(i - 1).startUnixNano > start) {
      i--;
    }
    if (i > 0 && window.get(i - 1).startUnixNano == start) {
      return window.get(i - 1);
    }
    WindowPane p = new WindowPane(start, 0, firstUnixNano, all);
    window.add(i, p);
    return p;
  }

  /** Starts the pane of {@code now} when due (the next epoch) and drops the panes older than the window. */
  private void roll(int w, long now) {
    long length = SLIDING.get(w).seconds() * 1_000_000_000L;
    long hop = length / PANES;
    long start = Math.floorDiv(now, hop) * hop;
    List<WindowPane> window = panes.get(w);
    if (window.isEmpty() || window.get(window.size() - 1).startUnixNano < start) {
      epoch = Math.min(epoch + 1, ReuseDistanceStack.MAX_EPOCH);
      window.add(new WindowPane(start, epoch, now, all));
    }
    while (window.get(0).startUnixNano < now - length) {
      window.remove(0);
    }
  }

  /**
   * 'all', then each sliding window's oldest live pane (windows without references are left out).
   * A window that has not slid yet (its oldest pane saw the stream's first reference, so it holds
   * every reference 'all' holds) reports 'all''s estimator: the same references, counted with the
   * agent's stream totals and LRU anchor, which the panes lack (class doc).
   */
  public List<Result> results() {
    List<Result> out = new ArrayList<>();
    out.add(new Result(ALL, all, allFirstUnixNano, allLastUnixNano));
    for (int w = 0; w < SLIDING.size(); w++) {
      List<WindowPane> window = panes.get(w);
      if (window.isEmpty()) {
        continue;
      }
      long first = window.get(0).firstUnixNano;
      MrcEstimate oldest = first == allFirstUnixNano ? all : WindowPane.estimate(window, 0, all);
      if (oldest.references() > 0) {
        out.add(new Result(SLIDING.get(w).name(), oldest, first, allLastUnixNano));
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
    EvictionDifferences differences = policies.differences();
    double[][] out = new double[kinds.length][lru.size()];
    for (int p = 0; p < kinds.length; p++) {
      for (int i = 0; i < lru.size(); i++) {
        out[p][i] = differences.missRatio(kinds[p], lru.cacheBytes(i), lru.missRatio(i), lru.missRatio(lru.size() - 1),
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

  /** Bytes of the serialised state: the checkpoint size of one volume. */
  public long stateBytes() {
    long header = 4 + 2 + factory.method().length() + 4 + 8 * 4 + 4 + 1 + 8;
    long bytes = header + all.stateBytes() + 1 + (policies == null ? 0 : policies.serializedBytes());
    for (List<WindowPane> window : panes) {
      bytes += 4;
      for (WindowPane p : window) {
        bytes += p.stateBytes();
      }
    }
    return bytes;
  }

  /** An independent deep copy. */
  @Override
  public WindowedEstimators copy() {
    ShardsEstimator sample = all.copy();
    WindowedEstimators c = new WindowedEstimators(factory, modulus, threshold, sample,
        policies == null ? null : policies.copy());
    c.allFirstUnixNano = allFirstUnixNano;
    c.allLastUnixNano = allLastUnixNano;
    c.epoch = epoch;
    c.fromShares = fromShares;
    c.sampleId = sampleId;
    for (int w = 0; w < panes.size(); w++) {
      for (WindowPane p : panes.get(w)) {
        c.panes.get(w).add(p.copy());
      }
    }
    return c;
  }

  /**
   * Writes the format, the factory, P, T, 'all', the epoch, whether the panes are the agent's, every
   * pane, and the policies' differences tagged by kind.
   */
  @Override
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeUTF(factory.method());
    out.writeInt(factory.maxSamples());
    out.writeLong(modulus);
    out.writeLong(threshold);
    out.writeLong(allFirstUnixNano);
    out.writeLong(allLastUnixNano);
    MrcEstimators.write(all, out);
    out.writeInt(epoch);
    out.writeBoolean(fromShares);
    out.writeLong(sampleId);
    for (List<WindowPane> window : panes) {
      out.writeInt(window.size());
      for (WindowPane p : window) {
        p.writeTo(out);
      }
    }
    out.writeByte(policies == null ? NO_POLICIES
        : policies instanceof AgentSimulations ? AGENT_SIMULATIONS : SERVICE_SIMULATIONS);
    if (policies != null) {
      policies.writeTo(out);
    }
  }

  /**
   * Reads estimators written by {@link #writeTo}, or by the layout before the shared sample
   * (format 2: 'all' is kept, the sliding windows start again).
   *
   * @throws IOException on a read error or an inconsistent state
   */
  public static WindowedEstimators readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format < 2 || format > STATE_FORMAT) {
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
    if (format == 2) {
      return readFormat2(in, factory, modulus, threshold);
    }
    long first = in.readLong();
    long last = in.readLong();
    ShardsEstimator all = MrcEstimators.read(in);
    int epoch = in.readInt();
    boolean fromShares = format >= 6 && in.readBoolean();
    long sampleId = format >= 6 ? in.readLong() : 0;
    List<List<WindowPane>> windows = new ArrayList<>();
    for (int w = 0; w < SLIDING.size(); w++) {
      List<WindowPane> window = new ArrayList<>();
      int count = in.readInt();
      if (format >= 5) {
        for (int n = 0; n < count; n++) {
          window.add(WindowPane.readFrom(in, all));
        }
      } else {
        WindowPane.readWholePanes(in, count, all, window);
      }
      windows.add(window);
    }
    PolicySimulations policies = readPolicies(in, format);
    WindowedEstimators w = new WindowedEstimators(factory, modulus, threshold, all, policies);
    w.allFirstUnixNano = first;
    w.allLastUnixNano = last;
    w.epoch = epoch;
    w.fromShares = fromShares;
    w.sampleId = sampleId;
    for (int i = 0; i < windows.size(); i++) {
      w.panes.get(i).addAll(windows.get(i));
    }
    return w;
  }

  /** The policies' differences: the tag since format 4, or format 3's flag of the service's simulations. */
  private static PolicySimulations readPolicies(DataInputView in, int format) throws IOException {
    byte kind = format == 3 ? (in.readBoolean() ? SERVICE_SIMULATIONS : NO_POLICIES) : in.readByte();
    return switch (kind) {
      case NO_POLICIES -> null;
      case SERVICE_SIMULATIONS -> MiniatureSimulations.readFrom(in);
      case AGENT_SIMULATIONS -> AgentSimulations.readFrom(in);
      default -> throw new IOException("windowed SHARDS state: unknown policy simulations " + kind);
    };
  }

  /** Format 2: 'all' and the policy simulations; each pane's own estimator is read and dropped. */
  private static WindowedEstimators readFormat2(DataInputView in, MrcEstimators factory, long modulus,
      long threshold) throws IOException {
    in.readLong();
    long first = in.readLong();
    long last = in.readLong();
    ShardsEstimator all = MrcEstimators.read(in);
    for (int w = 0; w < SLIDING.size(); w++) {
      for (int n = in.readInt(); n > 0; n--) {
        in.readLong();
        in.readLong();
        in.readLong();
        MrcEstimators.read(in);
      }
    }
    MiniatureSimulations policies = in.readBoolean() ? MiniatureSimulations.readFrom(in) : null;
    WindowedEstimators w = new WindowedEstimators(factory, modulus, threshold, all, policies);
    w.allFirstUnixNano = first;
    w.allLastUnixNano = last;
    return w;
  }
}
