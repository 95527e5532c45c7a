#include "sampling/sodium_init.hpp"

#include <sodium.h>

#include <stdexcept>

namespace tierwise::sampling {

void ensure_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace tierwise::sampling
