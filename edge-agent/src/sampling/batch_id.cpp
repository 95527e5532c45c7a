#include "sampling/batch_id.hpp"

#include <uuid/uuid.h>

namespace tierwise::sampling {

std::string new_batch_id() {
  uuid_t uuid;
  uuid_generate_random(uuid);
  char text[37];
  uuid_unparse_lower(uuid, text);
  return text;
}

}  // namespace tierwise::sampling
