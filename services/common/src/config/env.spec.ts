import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.js';

describe('loadEnv', () => {
  it('parses ports as numbers and splits the broker list', () => {
    const env = loadEnv(['TIERWISE_API_PORT', 'TIERWISE_KAFKA_BROKERS'], {
      TIERWISE_API_PORT: '8180',
      TIERWISE_KAFKA_BROKERS: '127.0.0.1:29692, 127.0.0.1:29693',
    });
    expect(env).toEqual({ TIERWISE_API_PORT: 8180, TIERWISE_KAFKA_BROKERS: ['127.0.0.1:29692', '127.0.0.1:29693'] });
  });

  it('names every missing variable and where they come from', () => {
    const load = () => loadEnv(['TIERWISE_PG_APP_URL', 'TIERWISE_INGEST_PORT'], {});
    expect(load).toThrow(EnvError);
    expect(load).toThrow(/TIERWISE_PG_APP_URL is not set\n {2}TIERWISE_INGEST_PORT is not set/);
    expect(load).toThrow(/infra\/local\/env\.sh/);
  });

  it('names a malformed variable and the problem', () => {
    expect(() => loadEnv(['TIERWISE_PG_APP_URL'], { TIERWISE_PG_APP_URL: 'mysql://x@127.0.0.1/db' })).toThrow(
      'TIERWISE_PG_APP_URL is invalid: must be a postgres:// URL',
    );
    expect(() => loadEnv(['TIERWISE_API_PORT'], { TIERWISE_API_PORT: '70000' })).toThrow(/TIERWISE_API_PORT is invalid/);
  });

  it('binds to 127.0.0.1 unless TIERWISE_BIND_ADDRESS names another IP address', () => {
    expect(loadEnv(['TIERWISE_BIND_ADDRESS'], {})).toEqual({ TIERWISE_BIND_ADDRESS: '127.0.0.1' });
    expect(loadEnv(['TIERWISE_BIND_ADDRESS'], { TIERWISE_BIND_ADDRESS: '0.0.0.0' })).toEqual({ TIERWISE_BIND_ADDRESS: '0.0.0.0' });
    expect(() => loadEnv(['TIERWISE_BIND_ADDRESS'], { TIERWISE_BIND_ADDRESS: 'localhost' })).toThrow(
      'TIERWISE_BIND_ADDRESS is invalid: must be an IPv4 or IPv6 address',
    );
  });

  it("trusts Slack's webhook origin unless TIERWISE_SLACK_WEBHOOK_ORIGIN names an https origin or a loopback receiver", () => {
    expect(loadEnv(['TIERWISE_SLACK_WEBHOOK_ORIGIN'], {})).toEqual({ TIERWISE_SLACK_WEBHOOK_ORIGIN: 'https://hooks.slack.com' });
    expect(loadEnv(['TIERWISE_SLACK_WEBHOOK_ORIGIN'], { TIERWISE_SLACK_WEBHOOK_ORIGIN: 'http://127.0.0.1:9000' })).toEqual({ TIERWISE_SLACK_WEBHOOK_ORIGIN: 'http://127.0.0.1:9000' });
    expect(() => loadEnv(['TIERWISE_SLACK_WEBHOOK_ORIGIN'], { TIERWISE_SLACK_WEBHOOK_ORIGIN: 'http://hooks.example.com' })).toThrow(
      /TIERWISE_SLACK_WEBHOOK_ORIGIN is invalid: must use https/,
    );
  });
});
