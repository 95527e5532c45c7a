package io.tierwise.jobs.recommend;

import java.util.Locale;

/** Human-readable byte sizes for explanations (binary units). */
final class Sizes {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

  private Sizes() {}

  /** E.g. 512 MiB, 1.5 GiB, 12 GiB: at most one decimal, trailing ".0" dropped. */
  static String human(long bytes) {
    double v = bytes;
    int unit = 0;
    while (v >= 1024 && unit < UNITS.length - 1) {
      v /= 1024;
      unit++;
    }
    String number = String.format(Locale.ROOT, "%.1f", v);
    if (number.endsWith(".0")) {
      number = number.substring(0, number.length() - 2);
    }
    return number + " " + UNITS[unit];
  }

  /** A ratio as a percentage with one decimal, e.g. "81.3 %". */
  static String percent(double ratio) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * ratio);
  }
}
