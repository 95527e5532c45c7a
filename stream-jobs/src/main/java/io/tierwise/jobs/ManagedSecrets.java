package io.tierwise.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Secrets that the Managed Flink property group names by ARN (a property group holds plain
 * text, so infra/terraform passes the ARNs and the job reads the values from AWS Secrets Manager
 * with its service role):
 *
 * <ul>
 *   <li>{@code TIERWISE_KAFKA_SASL_SECRET_ARN}: the MSK SCRAM secret, JSON {@code {"username",
 *       "password"}} (MSK's format) -> TIERWISE_KAFKA_SASL_USERNAME / _PASSWORD;
 *   <li>{@code PGPASSWORD_SECRET_ARN}: a plain-text password -> PGPASSWORD.
 * </ul>
 *
 * Settings that already hold the value keep it.
 */
final class ManagedSecrets {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ManagedSecrets() {}

  /** {@link #resolve(Map, UnaryOperator)} with AWS Secrets Manager (region and credentials from the runtime). */
  static Map<String, String> resolve(Map<String, String> settings) {
    if (!settings.containsKey("TIERWISE_KAFKA_SASL_SECRET_ARN") && !settings.containsKey("PGPASSWORD_SECRET_ARN")) {
      return settings;
    }
    try (SecretsManagerClient client = SecretsManagerClient.builder()
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build()) {
      return resolve(settings, arn -> client.getSecretValue(r -> r.secretId(arn)).secretString());
    }
  }

  /**
   * The settings with the secrets named by ARN filled in.
   *
   * @param secretString ARN -> the secret's string value
   * @throws IllegalArgumentException when the SCRAM secret is not {"username", "password"} JSON
   */
  static Map<String, String> resolve(Map<String, String> settings, UnaryOperator<String> secretString) {
    Map<String, String> out = new HashMap<>(settings);
    String scramArn = settings.get("TIERWISE_KAFKA_SASL_SECRET_ARN");
    if (scramArn != null && !settings.containsKey("TIERWISE_KAFKA_SASL_PASSWORD")) {
      try {
        JsonNode scram = JSON.readTree(secretString.apply(scramArn));
        if (!scram.path("username").isTextual() || !scram.path("password").isTextual()) {
          throw new IllegalArgumentException("secret " + scramArn + " has no \"username\" and \"password\"");
        }
        out.put("TIERWISE_KAFKA_SASL_USERNAME", scram.get("username").asText());
        out.put("TIERWISE_KAFKA_SASL_PASSWORD", scram.get("password").asText());
      } catch (IOException e) {
        throw new IllegalArgumentException("secret " + scramArn + " is not JSON {\"username\", \"password\"}", e);
      }
    }
    String pgArn = settings.get("PGPASSWORD_SECRET_ARN");
    if (pgArn != null && !settings.containsKey("PGPASSWORD")) {
      out.put("PGPASSWORD", secretString.apply(pgArn));
    }
    return out;
  }
}
