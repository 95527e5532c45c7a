package io.tierwise.jobs.testing;

import io.tierwise.jobs.workingset.estimate.DistinctBlockSketch;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The agent's side of the distinct-block sketch, for test-scope streams: the register of a block
 * hash as edge-agent/src/sampling/distinct_block_sketch.hpp defines it (index = top p bits; value
 * = 1 + leading zeros of the next 40 - p bits, 41 - p when all are zero), and the registers of one
 * volume with the rises since the last {@link #drainUpdates}.
 */
public final class SketchRegisters {
  private final int precision;
  private final byte[] registers;
  private final BitSet risen;

  /** Empty registers of precision p. */
  public SketchRegisters(int precision) {
    DistinctBlockSketch.checkPrecision(precision);
    this.precision = precision;
    this.registers = new byte[1 << precision];
    this.risen = new BitSet(1 << precision);
  }

  /** Register index of a block hash. */
  public static int index(long blockHash, int precision) {
    return (int) (blockHash >>> (64 - precision));
  }

  /** Register value of a block hash. */
  public static int value(long blockHash, int precision) {
    int rankBits = 64 - DistinctBlockSketch.SAMPLING_BITS - precision;
    long rankWord = (blockHash >>> DistinctBlockSketch.SAMPLING_BITS) << (64 - rankBits);
    return rankWord == 0 ? rankBits + 1 : Long.numberOfLeadingZeros(rankWord) + 1;
  }

  /** The precision p. */
  public int precision() {
    return precision;
  }

  /** Adds one considered block. */
  public void add(long blockHash) {
    int i = index(blockHash, precision);
    int v = value(blockHash, precision);
    if (v > registers[i]) {
      registers[i] = (byte) v;
      risen.set(i);
    }
  }

  /** The updates {@code (index << 8) | value} of the registers risen since the last call, ascending. */
  public int[] drainUpdates() {
    int[] updates = risen.stream().map(i -> i << 8 | registers[i]).toArray();
    risen.clear();
    return updates;
  }

  /** A copy of all registers. */
  public byte[] registers() {
    return Arrays.copyOf(registers, registers.length);
  }
}
