import { type EnvName, KAFKA_SECURITY_ENV } from '@tierwise/common';

/** The TIERWISE_* variables ingest, the agent gateway, needs (infra/local/env.sh; the Kafka security ones are optional). */
export const INGEST_ENV = [
  'TIERWISE_PG_APP_URL',
  'TIERWISE_KAFKA_BROKERS',
  'TIERWISE_INGEST_PORT',
  'TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE',
  ...KAFKA_SECURITY_ENV,
] as const satisfies readonly EnvName[];

/**
 * Largest accepted request body, bytes (after Content-Encoding is undone): 8 MiB. It also
 * bounds what one request publishes: its Kafka records (the body split per volume, each with a
 * small envelope) go out in one produce call and may all land in one partition, whose record
 * batch the broker takes whole or refuses. So the telemetry topics' `max.message.bytes` must
 * exceed this with room for the envelopes: 10 MiB (infra/local/kafka.sh, the MSK configuration
 * in infra/terraform/modules/kafka; docs/deployment.md "Kafka").
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Largest JSON request body (policy applied reports), bytes: 256 KiB. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** Most ResourceMetrics (volumes) in one OTLP request. */
export const MAX_RESOURCE_METRICS = 1000;

/** Most reference batches in one ReferenceBatches request (a host's volumes; the agent sends at most 1,000). */
export const MAX_REFERENCE_BATCHES = 1000;
/** Most references in one ReferenceBatch (the agent sends at most 10,000). */
export const MAX_REFERENCES = 100_000;

/** A data point may lie at most this far in the future (clock skew), nanoseconds: 5 minutes. */
export const MAX_FUTURE_SKEW_NANOS = 5n * 60n * 1_000_000_000n;

/** A data point may be at most this old, nanoseconds: 30 days (older data is not rolled up). */
export const MAX_AGE_NANOS = 30n * 24n * 3600n * 1_000_000_000n;

/** Seconds an agent should wait before retrying when Kafka is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Back-pressure: batches one ingest process accepts at once (dedup claim, inventory and the
 * Kafka publish, which holds a database connection until Kafka acknowledges). Twice the
 * database pool (10 connections): beyond it a slow Kafka would only queue requests on the
 * pool, so ingest answers 503 with Retry-After {@link RETRY_AFTER_BUSY_SECONDS} instead and
 * the agent backs off (and spools).
 */
export const MAX_IN_FLIGHT_BATCHES = 20;

/**
 * Load shedding: telemetry requests (POST /v1/metrics, /v1/refs, /v1/refs/batches) one ingest process holds open
 * at once, counted from authentication (before the body is read) until the answer is sent. Beyond it a request is
 * answered 503 with Retry-After {@link RETRY_AFTER_BUSY_SECONDS} without reading its body, so a
 * burst (or a starved database) queues on the agents' spools, not in ingest's heap: the bodies
 * held are at most this many times {@link MAX_BODY_BYTES}. Above {@link MAX_IN_FLIGHT_BATCHES}
 * so that requests being authenticated and parsed keep the publish slots busy.
 */
export const MAX_OPEN_TELEMETRY_REQUESTS = 64;

/**
 * Telemetry requests one agent credential holds open at once (the agent sends its metrics and
 * reference batches one at a time per stream): one agent, or one stolen credential, cannot take
 * the slots of {@link MAX_OPEN_TELEMETRY_REQUESTS} from the others.
 */
export const MAX_OPEN_TELEMETRY_REQUESTS_PER_AGENT = 8;

/**
 * Slowest body ingest waits for, bytes per second: an admitted telemetry body must arrive within
 * {@link BODY_GRACE_MS} plus its length at this rate (a {@link MAX_BODY_BYTES} body: 138 s), so a client that trickles its body cannot hold a slot.
 */
export const MIN_BODY_BYTES_PER_SECOND = 64 * 1024;

/** Milliseconds an admitted body may take beyond its length at {@link MIN_BODY_BYTES_PER_SECOND}. */
export const BODY_GRACE_MS = 10_000;

/** Seconds an agent should wait before retrying when ingest is at {@link MAX_IN_FLIGHT_BATCHES}, {@link MAX_OPEN_TELEMETRY_REQUESTS} or {@link MAX_OPEN_TELEMETRY_REQUESTS_PER_AGENT}. */
export const RETRY_AFTER_BUSY_SECONDS = 1;
