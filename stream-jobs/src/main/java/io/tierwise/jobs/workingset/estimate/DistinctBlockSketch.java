package io.tierwise.jobs.workingset.estimate;

import it.unimi.dsi.fastutil.ints.Int2IntMap;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The HyperLogLog sketch of the distinct 4 KiB blocks an agent considered for one volume (every
 * block, sampled or not), rebuilt from the register updates of {@code tierwise.v1.ReferenceBatch}
 * ({@code distinct_blocks_hll_precision}, {@code distinct_blocks_hll_updates}): each update
 * {@code (index << 8) | value} raises register {@code index} to {@code value}; the registers are
 * the element-wise maximum over all updates, so order, repeats and agent restarts do not matter.
 *
 * <p>Registers (defined by the agent, edge-agent/src/sampling/distinct_block_sketch.hpp): for a
 * block hash {@code H(L)} and precision {@code p}, index = the top {@code p} bits, value = 1 +
 * leading zeros of the next {@code q = 40 - p} bits, {@code q + 1} when they are all zero. The low
 * {@value #SAMPLING_BITS} bits, which decide SHARDS sampling, are not used.
 *
 * <p>Estimate: O. Ertl, "New cardinality estimation algorithms for HyperLogLog sketches",
 * arXiv:1702.01284 (2017), the improved raw estimator (Algorithm 6), unbiased over the whole range
 * from 0 to far beyond {@code 2^p} without HyperLogLog++'s empirical bias tables; relative standard
 * error about {@code 1.04 / sqrt(2^p)} (Flajolet, Fusy, Gandouet, Meunier, AofA 2007).
 *
 * <p>Few non-zero registers are kept in a hash map; past {@code 2^p / 16} of them the sketch turns
 * into a dense array of {@code 2^p} bytes. Not thread-safe.
 */
public final class DistinctBlockSketch {
  /** Smallest accepted precision p. */
  public static final int MIN_PRECISION = 4;
  /** Largest accepted precision p (256 KiB of registers). */
  public static final int MAX_PRECISION = 18;
  /** Low bits of H(L) that SHARDS sampling uses ({@code P} divides {@code 2^24}) and the sketch skips. */
  public static final int SAMPLING_BITS = 24;
  private static final int HASH_BITS = 64;
  private static final int VALUE_MASK = 0xFF;
  /** 1 / (2 ln 2): the limit of the HyperLogLog constant alpha_m (Ertl, section 4). */
  private static final double ALPHA_INFINITY = 1 / (2 * Math.log(2));

  private final int precision;
  /** Non-zero registers while few; null once dense. */
  private Int2IntOpenHashMap sparse;
  /** All 2^p registers; null while sparse. */
  private byte[] dense;
  /** {@link #estimate} since the last register rose; NaN: to compute (not state). */
  private double estimate = Double.NaN;

  /**
   * An empty sketch (estimate 0).
   *
   * @param precision p: 2^p registers
   * @throws IllegalArgumentException unless {@value #MIN_PRECISION} &le; p &le; {@value #MAX_PRECISION}
   */
  public DistinctBlockSketch(int precision) {
    checkPrecision(precision);
    this.precision = precision;
    this.sparse = new Int2IntOpenHashMap();
  }

  private DistinctBlockSketch(int precision, Int2IntOpenHashMap sparse, byte[] dense) {
    this.precision = precision;
    this.sparse = sparse;
    this.dense = dense;
  }

  /**
   * Checks a precision p.
   *
   * @throws IllegalArgumentException unless {@value #MIN_PRECISION} &le; p &le; {@value #MAX_PRECISION}
   */
  public static void checkPrecision(int precision) {
    if (precision < MIN_PRECISION || precision > MAX_PRECISION) {
      throw new IllegalArgumentException("HyperLogLog precision must be in " + MIN_PRECISION + ".."
          + MAX_PRECISION + ", got " + precision);
    }
  }

  /**
   * Checks one register update {@code (index << 8) | value} for precision p: index below
   * {@code 2^p}, value in {@code 1 .. 41 - p}.
   *
   * @throws IllegalArgumentException naming the index or value at fault
   */
  public static void checkUpdate(int update, int precision) {
    int index = update >>> 8;
    int value = update & VALUE_MASK;
    if (index >= 1 << precision) {
      throw new IllegalArgumentException("register index " + index + " is not below 2^" + precision);
    }
    if (value < 1 || value > maxValue(precision)) {
      throw new IllegalArgumentException("register " + index + " value " + value + " is not in 1.."
          + maxValue(precision));
    }
  }

  private static int maxValue(int precision) {
    return HASH_BITS - SAMPLING_BITS - precision + 1;
  }

  /** The precision p. */
  public int precision() {
    return precision;
  }

  /**
   * Raises a register: {@code register[index] = max(register[index], value)}.
   *
   * @param update {@code (index << 8) | value}
   * @throws IllegalArgumentException when {@link #checkUpdate} fails
   */
  public void merge(int update) {
    checkUpdate(update, precision);
    int index = update >>> 8;
    int value = update & VALUE_MASK;
    if (dense != null) {
      if (dense[index] < value) {
        dense[index] = (byte) value;
        estimate = Double.NaN;
      }
      return;
    }
    if (sparse.get(index) < value) {
      sparse.put(index, value);
      estimate = Double.NaN;
      if (sparse.size() > (1 << precision) / 16) {
        makeDense();
      }
    }
  }

  private void makeDense() {
    dense = new byte[1 << precision];
    for (Int2IntMap.Entry e : sparse.int2IntEntrySet()) {
      dense[e.getIntKey()] = (byte) e.getIntValue();
    }
    sparse = null;
  }

  /**
   * The estimated number of distinct blocks, {@code >= 0} (Ertl 2017, Algorithm 6); computed once
   * per change of the registers.
   */
  public double estimate() {
    if (Double.isNaN(estimate)) {
      estimate = computeEstimate();
    }
    return estimate;
  }

  private double computeEstimate() {
    int m = 1 << precision;
    int q = HASH_BITS - SAMPLING_BITS - precision;
    int[] counts = new int[q + 2];
    if (dense != null) {
      for (byte v : dense) {
        counts[v]++;
      }
    } else {
      for (int v : sparse.values()) {
        counts[v]++;
      }
      counts[0] = m - sparse.size();
    }
    if (counts[0] == m) {
      return 0;
    }
    double z = m * tau(1 - (double) counts[q + 1] / m);
    for (int k = q; k >= 1; k--) {
      z = 0.5 * (z + counts[k]);
    }
    z += m * sigma((double) counts[0] / m);
    return ALPHA_INFINITY * m * m / z;
  }

  /** sigma(x) = x + sum_{k >= 1} x^(2^k) 2^(k-1), for 0 &le; x &lt; 1 (Ertl, eq. 39). */
  private static double sigma(double x) {
    double y = 1;
    double z = x;
    double previous;
    do {
      x *= x;
      previous = z;
      z += x * y;
      y += y;
    } while (z != previous);
    return z;
  }

  /** tau(x) = (1 - x - sum_{k >= 1} (1 - x^(2^-k))^2 2^-k) / 3, for 0 &le; x &le; 1 (Ertl, eq. 40). */
  private static double tau(double x) {
    if (x == 0 || x == 1) {
      return 0;
    }
    double y = 1;
    double z = 1 - x;
    double previous;
    do {
      x = Math.sqrt(x);
      previous = z;
      y *= 0.5;
      z -= (1 - x) * (1 - x) * y;
    } while (z != previous);
    return z / 3;
  }

  /** An independent deep copy. */
  public DistinctBlockSketch copy() {
    return new DistinctBlockSketch(precision, sparse == null ? null : new Int2IntOpenHashMap(sparse),
        dense == null ? null : dense.clone());
  }

  /** Bytes of {@link #writeTo}. */
  long serializedBytes() {
    return dense != null ? 2 + dense.length : 6 + 4L * sparse.size();
  }

  /** Writes precision, then the sparse (index, value) pairs or the dense registers. */
  void writeTo(DataOutputView out) throws IOException {
    out.writeByte(precision);
    out.writeBoolean(dense != null);
    if (dense != null) {
      out.write(dense);
      return;
    }
    out.writeInt(sparse.size());
    for (Int2IntMap.Entry e : sparse.int2IntEntrySet()) {
      out.writeInt(e.getIntKey() << 8 | e.getIntValue());
    }
  }

  /**
   * Reads a sketch written by {@link #writeTo}.
   *
   * @throws IOException on a read error or an invalid register
   */
  static DistinctBlockSketch readFrom(DataInputView in) throws IOException {
    int precision = in.readByte();
    try {
      DistinctBlockSketch s = new DistinctBlockSketch(precision);
      if (in.readBoolean()) {
        s.dense = new byte[1 << precision];
        in.readFully(s.dense);
        s.sparse = null;
        for (int i = 0; i < s.dense.length; i++) {
          if (s.dense[i] < 0 || s.dense[i] > maxValue(precision)) {
            throw new IOException("inconsistent HyperLogLog state: register " + i + " is " + s.dense[i]);
          }
        }
      } else {
        for (int n = in.readInt(); n > 0; n--) {
          s.merge(in.readInt());
        }
      }
      return s;
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent HyperLogLog state: " + e.getMessage(), e);
    }
  }
}
