// The agent's version, declared once: the CMake project version
// (edge-agent/CMakeLists.txt), compiled into version.cpp only.
#pragma once

#include <string>

namespace tierwise {

// E.g. "0.1.0": `tierwise-agent --version`, service.version and the scope
// version of the OTLP metrics, enrollment and health reports.
const char* agent_version();

// "tierwise-agent/<version>": the User-Agent of the agent's requests to ingest.
std::string versioned_user_agent();

}  // namespace tierwise
