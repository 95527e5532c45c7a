import java.util.Arrays;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * Paired rounds of two ways of one step in one JVM (the house's way to compare a change with what
 * it replaces: bench/README.md): {@value #WARMUP} rounds of warm-up, then each round runs the way
 * before and then the way after; the figures are the medians over the rounds and the per-round
 * ratio after / before. Shared by RecommendationBench and RowDocumentsBench.
 */
final class PairedRounds {
  /** Rounds run first and not counted (JIT compilation). */
  static final int WARMUP = 2;

  /** Per round: the way before's rate, the way after's, and after / before. */
  final double[] before;
  final double[] after;
  final double[] ratio;

  private PairedRounds(int rounds) {
    before = new double[rounds];
    after = new double[rounds];
    ratio = new double[rounds];
  }

  /** Runs {@code rounds} counted rounds of {@code before} then {@code after}, each returning a rate. */
  static PairedRounds run(int rounds, DoubleSupplier before, DoubleSupplier after) {
    PairedRounds r = new PairedRounds(rounds);
    for (int round = 0; round < rounds + WARMUP; round++) {
      double a = before.getAsDouble();
      double b = after.getAsDouble();
      if (round >= WARMUP) {
        r.before[round - WARMUP] = a;
        r.after[round - WARMUP] = b;
        r.ratio[round - WARMUP] = b / a;
      }
    }
    return r;
  }

  /** "median of N paired rounds after 2 of warm-up: NAME X UNIT, NAME Y UNIT, per-round ratio Rx (rounds a-b)". */
  String summary(String beforeName, String afterName, String unit) {
    return String.format(Locale.ROOT, "median of %d paired rounds after %d of warm-up: %s %,.0f %s, %s %,.0f %s,"
        + " per-round ratio %.2fx (rounds %.2f-%.2f)", ratio.length, WARMUP, beforeName, WorkingSetBench.median(before), unit,
        afterName, WorkingSetBench.median(after), unit, WorkingSetBench.median(ratio),
        Arrays.stream(ratio).min().orElseThrow(), Arrays.stream(ratio).max().orElseThrow());
  }
}
