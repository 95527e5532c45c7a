// JSON requests of the agent to the agent gateway (through net/, the agent's
// HTTP client): enrollment and health reports (docs/agent-gateway.md). Batches
// go to the same gateway through exporter::HttpSender instead.
#pragma once

#include <string>

namespace tierwise::agent {

// The answer of one request: `status` 0 when no HTTP answer came (then
// `error` says why: connection refused, timeout, ...).
struct GatewayAnswer {
  long status = 0;
  std::string body;   // the answer's body (the service's error body for a 4xx/5xx)
  std::string error;  // why, when status is 0 (libcurl's message, net::Response::error_text)
};

// Sends `json_body` (Content-Type: application/json) with `method` (POST,
// PUT) to `url`, with `Authorization: Bearer <bearer>` unless `bearer` is
// empty. Blocks at most `timeout_ms` milliseconds (connect 5 s). Never throws
// for a network problem: it is in the answer.
GatewayAnswer send_json(const std::string& method, const std::string& url, const std::string& bearer,
                    const std::string& json_body, long timeout_ms = 15000);

// "HTTP 409 from <url>: <body>" or "no answer from <url>: <error>", for log lines.
std::string describe(const GatewayAnswer& answer, const std::string& url);

}  // namespace tierwise::agent
