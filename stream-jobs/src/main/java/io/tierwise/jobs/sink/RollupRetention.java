package io.tierwise.jobs.sink;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces the retention of metric_rollups per resolution (table rollup_resolutions: 10 s 2 days,
 * 1 min 14 days, 1 h 180 days, 1 d 1095 days), and that of a volume's interval rows
 * (volume_metrics_10s: 7 days), by calling the SQL function
 * {@code maintain_rollup_partitions()} (docs/rollups.md "Retention"): partitions wholly older than
 * the retention are dropped, the partitions up to one ahead of now are created. Then {@code
 * expire_volume_window_documents()} ends the documents of a volume's 10 s windows, which its
 * interval rows hold, with the 10 s resolution's retention (db migration 910). The embedded run
 * calls it every {@link #PERIOD}; on a Flink cluster run {@code java -cp tierwise-stream-jobs.jar
 * io.tierwise.jobs.sink.RollupRetention} from cron (docs/flink-cluster.md).
 */
public final class RollupRetention {
  /** How often the embedded run enforces the retention. */
  public static final Duration PERIOD = Duration.ofHours(1);
  private static final Logger LOG = LoggerFactory.getLogger(RollupRetention.class);

  private RollupRetention() {}

  /**
   * Runs maintain_rollup_partitions() once and logs, per partitioned relation, the partitions
   * created and dropped and the expired rows deleted from its default partition; then
   * expire_volume_window_documents(), logging the partitions of interval rows it rewrote.
   *
   * @param jdbcUrl PostgreSQL JDBC URL of role tierwise_jobs
   * @return partitions dropped over all relations
   * @throws SQLException when PostgreSQL is unreachable or a function fails
   */
  public static int enforce(String jdbcUrl) throws SQLException {
    int dropped = 0;
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT * FROM maintain_rollup_partitions()");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          dropped += rs.getInt("dropped");
          LOG.info("retention of {} ({}): {} partitions created, {} dropped, {} expired rows deleted",
              rs.getString("relation"), rs.getString("resolution"), rs.getInt("created"), rs.getInt("dropped"),
              rs.getLong("expired_rows"));
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT expire_volume_window_documents()");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        LOG.info("retention of a volume's 10 s window documents (volume_metrics_10s): {} partitions rewritten without them",
            rs.getInt(1));
      }
    }
    return dropped;
  }

  /** Enforces the retention now and then every {@link #PERIOD} on a daemon thread; failures are logged. */
  public static ScheduledExecutorService schedule(String jdbcUrl) {
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "rollup-retention");
      t.setDaemon(true);
      return t;
    });
    executor.scheduleAtFixedRate(() -> {
      try {
        enforce(jdbcUrl);
      } catch (SQLException e) {
        LOG.warn("rollup retention failed (retried in {} min): {}", PERIOD.toMinutes(), e.getMessage());
      }
    }, 0, PERIOD.toSeconds(), TimeUnit.SECONDS);
    return executor;
  }

  /**
   * Runs {@link #enforce} once with TIERWISE_JDBC_URL (PGPASSWORD and PGSSLMODE added as the jobs
   * add them, {@link JdbcUrls#withPgEnvironment}); exits 1 naming the problem on failure.
   */
  public static void main(String[] args) {
    String url = System.getenv("TIERWISE_JDBC_URL");
    if (url == null || url.isBlank()) {
      LOG.error("rollup retention: TIERWISE_JDBC_URL is not set");
      System.exit(1);
    }
    try {
      enforce(JdbcUrls.withPgEnvironment(url, System.getenv()));
    } catch (SQLException e) {
      LOG.error("rollup retention: {}", e.getMessage());
      System.exit(1);
    }
  }
}
