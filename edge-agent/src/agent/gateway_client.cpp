#include "agent/gateway_client.hpp"

#include "net/http_client.hpp"

namespace tierwise::agent {

GatewayAnswer send_json(const std::string& method, const std::string& url, const std::string& bearer,
                    const std::string& json_body, long timeout_ms) {
  net::Request r;
  r.method = method;
  r.url = url;
  r.headers = {"Content-Type: application/json", "Accept: application/json"};
  if (!bearer.empty()) r.headers.push_back("Authorization: Bearer " + bearer);
  r.body = json_body;
  r.connect_timeout = std::chrono::milliseconds(5000);
  r.timeout = std::chrono::milliseconds(timeout_ms);
  net::Response response = net::request(r);
  GatewayAnswer answer;
  if (!response.answered()) {
    answer.error = std::move(response.error_text);
    return answer;
  }
  answer.status = response.status;
  answer.body = std::move(response.body);
  return answer;
}

std::string describe(const GatewayAnswer& answer, const std::string& url) {
  if (answer.status == 0) return "no answer from " + url + ": " + answer.error;
  return "HTTP " + std::to_string(answer.status) + " from " + url + ": " + answer.body;
}

}  // namespace tierwise::agent
