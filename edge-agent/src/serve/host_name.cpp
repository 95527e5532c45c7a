#include "serve/host_name.hpp"

#include <climits>

#include <unistd.h>

namespace tierwise::serve {

std::string local_host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

}  // namespace tierwise::serve
