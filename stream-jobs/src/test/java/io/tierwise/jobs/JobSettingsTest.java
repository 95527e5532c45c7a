package io.tierwise.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.kinesisanalytics.runtime.KinesisAnalyticsRuntime;
import io.tierwise.jobs.sink.JdbcUrls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSettingsTest {
  private static final Map<String, String> ENV = Map.of(
      "TIERWISE_KAFKA_BROKERS", "127.0.0.1:9092",
      "TIERWISE_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/tierwise?user=tierwise_jobs");

  @Test
  void withoutManagedFlinkPropertiesTheEnvironmentCounts() {
    JobSettings s = JobSettings.load(ENV);

    assertThat(s.kafkaBrokers()).isEqualTo("127.0.0.1:9092");
    assertThat(s.kafkaSecurity()).isEmpty();
    assertThat(s.telemetry().enabled()).isFalse();
  }

  @Test
  void theManagedFlinkPropertyGroupOverridesTheEnvironment(@TempDir Path dir) throws Exception {
    // The file Managed Service for Apache Flink writes for the application's runtime properties.
    Path file = dir.resolve("application_properties.json");
    Files.writeString(file, """
        [{"PropertyGroupId": "tierwise", "PropertyMap": {
          "TIERWISE_KAFKA_BROKERS": "b-1.msk.example:9096,b-2.msk.example:9096",
          "TIERWISE_KAFKA_SECURITY_PROTOCOL": "SASL_SSL",
          "TIERWISE_KAFKA_SASL_USERNAME": "tierwise-jobs",
          "TIERWISE_KAFKA_SASL_PASSWORD": "s3cr\\"et",
          "PGSSLMODE": "verify-full",
          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}}]""");

    JobSettings s = JobSettings.load(ENV, KinesisAnalyticsRuntime.getApplicationProperties(file.toString()));

    assertThat(s.kafkaBrokers()).isEqualTo("b-1.msk.example:9096,b-2.msk.example:9096");
    assertThat(s.kafkaSecurity()).containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"tierwise-jobs\" password=\"s3cr\\\"et\";");
    assertThat(s.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/tierwise?user=tierwise_jobs&sslmode=verify-full");
    assertThat(s.telemetry().enabled()).isTrue();
  }

  @Test
  void pgPasswordAndSslModeJoinTheJdbcUrlUnlessItSetsThem() {
    Map<String, String> env = Map.of("PGPASSWORD", "p&ss word", "PGSSLMODE", "require");

    assertThat(JdbcUrls.withPgEnvironment("jdbc:postgresql://db:5432/tierwise?user=tierwise_jobs", env))
        .isEqualTo("jdbc:postgresql://db:5432/tierwise?user=tierwise_jobs&password=p%26ss+word&sslmode=require");
    assertThat(JdbcUrls.withPgEnvironment("jdbc:postgresql://db/tierwise?sslmode=disable", env))
        .isEqualTo("jdbc:postgresql://db/tierwise?sslmode=disable&password=p%26ss+word");
  }

  @Test
  void saslWithoutCredentialsIsRefusedByName() {
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("TIERWISE_KAFKA_SECURITY_PROTOCOL", "SASL_SSL");

    assertThatThrownBy(() -> JobSettings.fromEnvironment(env))
        .hasMessageContaining("TIERWISE_KAFKA_SASL_USERNAME and TIERWISE_KAFKA_SASL_PASSWORD are required");
    env.put("TIERWISE_KAFKA_SECURITY_PROTOCOL", "SASL_TLS");
    assertThatThrownBy(() -> JobSettings.fromEnvironment(env))
        .hasMessageContaining("TIERWISE_KAFKA_SECURITY_PROTOCOL 'SASL_TLS' is not one of");
  }

  @Test
  void theCheckpointIntervalIsAMinuteUnlessSetAndNonsenseIsRefusedByName() {
    assertThat(JobSettings.fromEnvironment(ENV).checkpointInterval()).isEqualTo(java.time.Duration.ofSeconds(60));
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("TIERWISE_CHECKPOINT_INTERVAL_SECONDS", "15");
    assertThat(JobSettings.fromEnvironment(env).checkpointInterval()).isEqualTo(java.time.Duration.ofSeconds(15));
    env.put("TIERWISE_CHECKPOINT_INTERVAL_SECONDS", "0");
    assertThatThrownBy(() -> JobSettings.fromEnvironment(env))
        .hasMessageContaining("TIERWISE_CHECKPOINT_INTERVAL_SECONDS '0' is not a whole number of seconds >= 1");
    env.put("TIERWISE_CHECKPOINT_INTERVAL_SECONDS", "1m");
    assertThatThrownBy(() -> JobSettings.fromEnvironment(env)).hasMessageContaining("'1m'");
  }

  @Test
  void coarseWindowsAreRewrittenEveryMinuteUnlessSet() {
    assertThat(JobSettings.fromEnvironment(ENV).coarseWritePeriod()).isEqualTo(java.time.Duration.ofSeconds(60));
    Map<String, String> env = new java.util.HashMap<>(ENV);
    env.put("TIERWISE_COARSE_WRITE_SECONDS", "5");
    assertThat(JobSettings.fromEnvironment(env).coarseWritePeriod()).isEqualTo(java.time.Duration.ofSeconds(5));
    env.put("TIERWISE_COARSE_WRITE_SECONDS", "-1");
    assertThatThrownBy(() -> JobSettings.fromEnvironment(env))
        .hasMessageContaining("TIERWISE_COARSE_WRITE_SECONDS '-1' is not a whole number of seconds >= 1");
  }
}
