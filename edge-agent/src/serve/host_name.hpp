// The host's name (gethostname), for the keyed host id and --send-names.
#pragma once

#include <string>

namespace tierwise::serve {

// gethostname(2); "localhost" when it fails.
std::string local_host_name();

}  // namespace tierwise::serve
