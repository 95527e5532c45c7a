// Batch ids: random (version 4) UUIDs from libuuid, as ReferenceBatch.batch_id
// and the X-Tierwise-Batch-Id header carry them.
#pragma once

#include <string>

namespace tierwise::sampling {

// A new random UUID, 36 lower-case characters ("xxxxxxxx-xxxx-4xxx-...").
std::string new_batch_id();

}  // namespace tierwise::sampling
