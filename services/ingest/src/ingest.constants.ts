import type { EnvName } from '@tierwise/common';

/** The TIERWISE_* variables ingest needs (infra/local/env.sh). */
export const INGEST_ENV = ['TIERWISE_PG_APP_URL', 'TIERWISE_KAFKA_BROKERS', 'TIERWISE_INGEST_PORT'] as const satisfies readonly EnvName[];

/** Largest accepted request body, bytes (after Content-Encoding is undone): 8 MiB. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Most ResourceMetrics (volumes) in one OTLP request. */
export const MAX_RESOURCE_METRICS = 1000;

/** Most references in one ReferenceBatch (the agent sends at most 10,000). */
export const MAX_REFERENCES = 100_000;

/**
 * Largest Kafka record value ingest writes, bytes: below Kafka's default
 * message.max.bytes (1,048,588) with room for the record batch overhead. A batch that
 * would need a larger record is refused with 413 rather than retried forever.
 */
export const MAX_RECORD_BYTES = 1_000_000;

/** A data point may lie at most this far in the future (clock skew), nanoseconds: 5 minutes. */
export const MAX_FUTURE_SKEW_NANOS = 5n * 60n * 1_000_000_000n;

/** A data point may be at most this old, nanoseconds: 30 days (older data is not rolled up). */
export const MAX_AGE_NANOS = 30n * 24n * 3600n * 1_000_000_000n;

/** Seconds an agent should wait before retrying when Kafka is unavailable. */
export const RETRY_AFTER_SECONDS = 5;
