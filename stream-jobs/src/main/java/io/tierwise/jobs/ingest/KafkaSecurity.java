package io.tierwise.jobs.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Kafka client security of the jobs from the settings every Tierwise part reads (docs/deployment.md):
 * TIERWISE_KAFKA_SECURITY_PROTOCOL ({@code PLAINTEXT} default, {@code SSL}, {@code SASL_SSL}, or
 * {@code SASL_PLAINTEXT} for local tests), TIERWISE_KAFKA_SASL_MECHANISM ({@code SCRAM-SHA-512},
 * what Amazon MSK's SASL/SCRAM uses, or {@code SCRAM-SHA-256}), TIERWISE_KAFKA_SASL_USERNAME /
 * TIERWISE_KAFKA_SASL_PASSWORD, and TIERWISE_KAFKA_SSL_CA_FILE (PEM; default: the JVM's trust
 * store, which trusts MSK's Amazon certificates). Kafka client property names: Apache Kafka
 * documentation, "Security" (SASL/SCRAM, SSL).
 */
public final class KafkaSecurity {
  private static final Set<String> PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
  private static final Set<String> MECHANISMS = Set.of("SCRAM-SHA-256", "SCRAM-SHA-512");

  private KafkaSecurity() {}

  /**
   * The Kafka client properties for {@code settings}: empty for PLAINTEXT.
   *
   * @throws IllegalArgumentException naming an unknown protocol or mechanism, or missing
   *     credentials for SASL
   */
  public static Map<String, String> properties(Map<String, String> settings) {
    String protocol = settings.getOrDefault("TIERWISE_KAFKA_SECURITY_PROTOCOL", "PLAINTEXT").trim();
    if (!PROTOCOLS.contains(protocol)) {
      throw new IllegalArgumentException("TIERWISE_KAFKA_SECURITY_PROTOCOL '" + protocol + "' is not one of " + PROTOCOLS);
    }
    Map<String, String> p = new LinkedHashMap<>();
    if (protocol.equals("PLAINTEXT")) {
      return p;
    }
    p.put("security.protocol", protocol);
    if (protocol.startsWith("SASL_")) {
      String mechanism = settings.getOrDefault("TIERWISE_KAFKA_SASL_MECHANISM", "SCRAM-SHA-512").trim();
      if (!MECHANISMS.contains(mechanism)) {
        throw new IllegalArgumentException("TIERWISE_KAFKA_SASL_MECHANISM '" + mechanism + "' is not one of " + MECHANISMS);
      }
      String user = settings.get("TIERWISE_KAFKA_SASL_USERNAME");
      String password = settings.get("TIERWISE_KAFKA_SASL_PASSWORD");
      if (user == null || user.isBlank() || password == null || password.isEmpty()) {
        throw new IllegalArgumentException("TIERWISE_KAFKA_SASL_USERNAME and TIERWISE_KAFKA_SASL_PASSWORD are required with "
            + protocol);
      }
      p.put("sasl.mechanism", mechanism);
      p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
          + jaasQuote(user) + "\" password=\"" + jaasQuote(password) + "\";");
    }
    String ca = settings.get("TIERWISE_KAFKA_SSL_CA_FILE");
    if (protocol.endsWith("SSL") && ca != null && !ca.isBlank()) {
      p.put("ssl.truststore.type", "PEM");
      p.put("ssl.truststore.location", ca);
    }
    return p;
  }

  /** A JAAS string value: backslash and double quote escaped. */
  private static String jaasQuote(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
