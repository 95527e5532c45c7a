#include "agent/api_client.hpp"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace tierwise::agent {
namespace {

size_t on_body(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

}  // namespace

ApiAnswer send_json(const std::string& method, const std::string& url, const std::string& bearer,
                    const std::string& json_body, long timeout_ms) {
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  ApiAnswer answer;
  const std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    answer.error = "curl_easy_init failed";
    return answer;
  }
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  const std::string authorization = "Authorization: Bearer " + bearer;
  if (!bearer.empty()) headers = curl_slist_append(headers, authorization.c_str());
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(headers, curl_slist_free_all);
  char error[CURL_ERROR_SIZE] = {0};
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, json_body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(json_body.size()));
  curl_easy_setopt(c, CURLOPT_USERAGENT, "tierwise-agent");
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &answer.body);
  const CURLcode rc = curl_easy_perform(c);
  if (rc != CURLE_OK) {
    answer.error = error[0] != '\0' ? error : curl_easy_strerror(rc);
    return answer;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &answer.status);
  return answer;
}

std::string describe(const ApiAnswer& answer, const std::string& url) {
  if (answer.status == 0) return "no answer from " + url + ": " + answer.error;
  return "HTTP " + std::to_string(answer.status) + " from " + url + ": " + answer.body;
}

}  // namespace tierwise::agent
