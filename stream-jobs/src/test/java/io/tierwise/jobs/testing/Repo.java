package io.tierwise.jobs.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Paths of the checkout and of the shared inputs, as seen from stream-jobs' tests. */
public final class Repo {
  private Repo() {}

  /** The repository root (the parent of stream-jobs/). */
  public static Path root() {
    Path dir = Paths.get("").toAbsolutePath();
    return Files.isRegularFile(dir.resolve("pom.xml")) && dir.endsWith("stream-jobs") ? dir.getParent() : dir;
  }

  /** The real traces: $TIERWISE_TRACES_DIR, else ../shared/traces beside the checkout. */
  public static Path traces() {
    String env = System.getenv("TIERWISE_TRACES_DIR");
    return env != null && !env.isEmpty() ? Paths.get(env) : root().getParent().resolve("shared/traces");
  }

  /** True when running under CI (CI=true): missing prerequisites fail instead of degrading. */
  public static boolean isCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }
}
