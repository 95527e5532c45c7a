package io.tierwise.jobs.testing;

/** Stand-ins for the agent's keyed block hash H(L) in estimator tests. */
public final class BlockHashes {
  private BlockHashes() {}

  /**
   * A random-looking 64-bit hash of a block number, as the agent's SipHash gives: SplitMix64's
   * finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
   */
  public static long of(long block) {
    long z = block * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
