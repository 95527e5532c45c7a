package io.tierwise.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Retained checkpoints of the embedded run: Flink writes
 * {@code <dir>/<job id>/chk-<n>/_metadata}; the next start restores the newest one, so the
 * working sets and totals survive a restart and Kafka is read on from where they stopped.
 */
final class LocalCheckpoints {
  private LocalCheckpoints() {}

  /**
   * The newest completed checkpoint under {@code dir} (by the time of its _metadata file), or
   * empty when there is none.
   */
  static Optional<Path> newest(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> jobs = Files.list(dir)) {
      List<Path> metadata = jobs.filter(Files::isDirectory).flatMap(LocalCheckpoints::checkpointsOf).toList();
      return metadata.stream().max(Comparator.comparing(LocalCheckpoints::modified)).map(Path::getParent);
    }
  }

  /** Deletes every job directory under {@code dir} except the one holding {@code keep}. */
  static void deleteOthers(Path dir, Path keep) throws IOException {
    Path keepJob = keep.getParent();
    try (Stream<Path> jobs = Files.list(dir)) {
      for (Path job : jobs.filter(p -> !p.equals(keepJob)).toList()) {
        try (Stream<Path> tree = Files.walk(job)) {
          for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
  }

  private static Stream<Path> checkpointsOf(Path jobDir) {
    try (Stream<Path> entries = Files.list(jobDir)) {
      return entries
          .filter(p -> p.getFileName().toString().startsWith("chk-"))
          .map(p -> p.resolve("_metadata"))
          .filter(Files::isRegularFile)
          .toList()
          .stream();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list checkpoints in " + jobDir, e);
    }
  }

  private static FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the time of " + p, e);
    }
  }
}
