import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { type Env, EnvError } from './env.js';

/** The Kafka security variables (every one documented in docs/deployment.md). */
export const KAFKA_SECURITY_ENV = [
  'TIERWISE_KAFKA_SECURITY_PROTOCOL',
  'TIERWISE_KAFKA_SASL_MECHANISM',
  'TIERWISE_KAFKA_SASL_USERNAME',
  'TIERWISE_KAFKA_SASL_PASSWORD',
  'TIERWISE_KAFKA_SSL_CA_FILE',
] as const;

/** TLS and SASL options of a Kafka client (the shape @platformatic/kafka's clients take). */
export interface KafkaSecurityOptions {
  tls?: ConnectionOptions;
  sasl?: { mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; username: string; password: string };
}

/**
 * The client options for the configured Kafka security protocol: nothing for PLAINTEXT; TLS
 * (server certificate verified against Node's CAs, or TIERWISE_KAFKA_SSL_CA_FILE) for SSL and
 * SASL_SSL; SASL/SCRAM credentials for SASL_SSL and SASL_PLAINTEXT (RFC 5802, RFC 7677).
 *
 * @throws EnvError when SASL is asked for without TIERWISE_KAFKA_SASL_USERNAME / _PASSWORD, or
 *   the CA file cannot be read.
 */
export function kafkaSecurity(env: Env<(typeof KAFKA_SECURITY_ENV)[number]>): KafkaSecurityOptions {
  const protocol = env.TIERWISE_KAFKA_SECURITY_PROTOCOL;
  const options: KafkaSecurityOptions = {};
  if (protocol === 'SSL' || protocol === 'SASL_SSL') {
    options.tls = {};
    if (env.TIERWISE_KAFKA_SSL_CA_FILE) {
      try {
        options.tls.ca = readFileSync(env.TIERWISE_KAFKA_SSL_CA_FILE);
      } catch (error) {
        throw new EnvError(`TIERWISE_KAFKA_SSL_CA_FILE is invalid: ${(error as Error).message}`);
      }
    }
  }
  if (protocol === 'SASL_SSL' || protocol === 'SASL_PLAINTEXT') {
    const { TIERWISE_KAFKA_SASL_USERNAME: username, TIERWISE_KAFKA_SASL_PASSWORD: password } = env;
    if (!username || !password) {
      throw new EnvError(`TIERWISE_KAFKA_SASL_USERNAME and TIERWISE_KAFKA_SASL_PASSWORD are required with ${protocol}`);
    }
    options.sasl = { mechanism: env.TIERWISE_KAFKA_SASL_MECHANISM, username, password };
  }
  return options;
}
