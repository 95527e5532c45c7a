// libsodium must be initialised once before its random generator is used.
#pragma once

namespace tierwise::sampling {

// Calls sodium_init() (idempotent, thread-safe); throws std::runtime_error if
// libsodium cannot initialise.
void ensure_sodium();

}  // namespace tierwise::sampling
