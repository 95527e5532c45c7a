package io.tierwise.jobs.workingset.estimate;

/**
 * The hash-sampling rate of SHARDS (Waldspurger et al., FAST 2015, section 3): a block is sampled
 * while {@code H(L) mod P < T}, at rate {@code R = T / P}, both unsigned 64-bit.
 */
public final class SamplingRate {
  private SamplingRate() {}

  /**
   * {@code T / P} (unsigned).
   *
   * @throws IllegalArgumentException unless {@code 0 < T <= P}
   */
  public static double of(long modulus, long threshold) {
    if (modulus == 0 || threshold == 0 || Long.compareUnsigned(threshold, modulus) > 0) {
      throw new IllegalArgumentException("SHARDS needs 0 < threshold <= modulus, got threshold "
          + Long.toUnsignedString(threshold) + " and modulus " + Long.toUnsignedString(modulus));
    }
    return unsignedToDouble(threshold) / unsignedToDouble(modulus);
  }

  /** The unsigned value of {@code v} as a double. */
  public static double unsignedToDouble(long v) {
    return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
  }
}
