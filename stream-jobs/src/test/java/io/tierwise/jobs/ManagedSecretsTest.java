package io.tierwise.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ManagedSecretsTest {
  private static final String SCRAM_ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_prod_tierwise-AbCdEf";
  private static final String PG_ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/pg-jobs-password-XyZ";

  @Test
  void theMskScramSecretAndThePostgresPasswordBecomeSettings() {
    Map<String, String> secrets = Map.of(SCRAM_ARN, "{\"username\":\"tierwise\",\"password\":\"pw1\"}", PG_ARN, "pw2");

    Map<String, String> s = ManagedSecrets.resolve(
        Map.of("TIERWISE_KAFKA_SASL_SECRET_ARN", SCRAM_ARN, "PGPASSWORD_SECRET_ARN", PG_ARN), secrets::get);

    assertThat(s).containsEntry("TIERWISE_KAFKA_SASL_USERNAME", "tierwise")
        .containsEntry("TIERWISE_KAFKA_SASL_PASSWORD", "pw1").containsEntry("PGPASSWORD", "pw2");
  }

  @Test
  void aScramSecretWithoutCredentialsIsRefusedByName() {
    assertThatThrownBy(() -> ManagedSecrets.resolve(Map.of("TIERWISE_KAFKA_SASL_SECRET_ARN", SCRAM_ARN), arn -> "{\"user\":\"x\"}"))
        .hasMessageContaining("secret " + SCRAM_ARN + " has no \"username\" and \"password\"");
  }
}
