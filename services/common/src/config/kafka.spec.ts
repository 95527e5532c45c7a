import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.js';
import { KAFKA_SECURITY_ENV, kafkaSecurity } from './kafka.js';

const security = (source: NodeJS.ProcessEnv) => kafkaSecurity(loadEnv(KAFKA_SECURITY_ENV, source));

describe('kafkaSecurity', () => {
  it('is plain TCP by default (the local stack)', () => {
    expect(security({})).toEqual({});
  });

  it('gives SCRAM-SHA-512 over TLS for SASL_SSL, as Amazon MSK requires', () => {
    expect(security({ TIERWISE_KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', TIERWISE_KAFKA_SASL_USERNAME: 'tierwise', TIERWISE_KAFKA_SASL_PASSWORD: 'pw' })).toEqual({
      tls: {},
      sasl: { mechanism: 'SCRAM-SHA-512', username: 'tierwise', password: 'pw' },
    });
  });

  it('trusts the CA file given', () => {
    const ca = path.join(mkdtempSync(path.join(tmpdir(), 'kafka-ca-')), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect(security({ TIERWISE_KAFKA_SECURITY_PROTOCOL: 'SSL', TIERWISE_KAFKA_SSL_CA_FILE: ca }).tls?.ca?.toString()).toBe('-----BEGIN CERTIFICATE-----\n');
  });

  it('names the missing credentials, an unreadable CA file and an unknown protocol', () => {
    expect(() => security({ TIERWISE_KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT', TIERWISE_KAFKA_SASL_USERNAME: 'u' })).toThrow(
      new EnvError('TIERWISE_KAFKA_SASL_USERNAME and TIERWISE_KAFKA_SASL_PASSWORD are required with SASL_PLAINTEXT'),
    );
    expect(() => security({ TIERWISE_KAFKA_SECURITY_PROTOCOL: 'SSL', TIERWISE_KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' })).toThrow(
      /TIERWISE_KAFKA_SSL_CA_FILE is invalid: ENOENT/,
    );
    expect(() => security({ TIERWISE_KAFKA_SECURITY_PROTOCOL: 'SASL_TLS' })).toThrow(/TIERWISE_KAFKA_SECURITY_PROTOCOL is invalid/);
  });
});
