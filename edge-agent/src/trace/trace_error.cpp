#include "trace/trace_error.hpp"

namespace tierwise::trace {

std::string TraceError::to_string() const {
  std::string text = file;
  text += unit == Unit::kLine ? ":" : ":record ";
  text += std::to_string(number);
  text += ": ";
  text += reason;
  return text;
}

}  // namespace tierwise::trace
