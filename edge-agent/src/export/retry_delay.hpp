#pragma once
// How long the agent waits before it sends a batch again after a 429, a 5xx or a
// network error (export/http_sender.hpp, lifecycle step 3).

#include <chrono>
#include <random>

namespace tierwise::exporter {

/*
 * The wait before retry number `attempt` (1 = the first retry), milliseconds:
 *
 *   backoff = min(initial_backoff * 2^(attempt-1), max_backoff), with "equal jitter"
 *             (half fixed, half uniformly random: AWS Architecture Blog, "Exponential
 *             Backoff And Jitter", 2015);
 *   with a Retry-After of s > 0 seconds: max(backoff, min(s, max_backoff) * U[1, 1.5]),
 *             capped at max_backoff.
 *
 * Retry-After is the least wait (RFC 9110 §10.2.3), not the whole of it: a busy ingest
 * answers every agent the same Retry-After, and agents that all came back after exactly
 * that long would meet again (the thundering herd). The random half spreads them, and the
 * backoff still doubles while the service stays busy. `attempt` < 1 counts as 1.
 */
std::chrono::milliseconds retry_delay(std::chrono::milliseconds initial_backoff,
                                      std::chrono::milliseconds max_backoff, int attempt,
                                      long retry_after_seconds, std::mt19937_64& rng);

}  // namespace tierwise::exporter
