#include "common/version.hpp"

namespace tierwise {

const char* agent_version() { return TIERWISE_AGENT_VERSION; }

std::string versioned_user_agent() { return std::string("tierwise-agent/") + agent_version(); }

}  // namespace tierwise
