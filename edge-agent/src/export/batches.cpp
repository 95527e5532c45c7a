#include "export/batches.hpp"

#include "sampling/batch_id.hpp"

namespace tierwise::exporter {

Batch metrics_batch(const ExportMetricsServiceRequest& request, size_t stream) {
  return Batch{Endpoint::kMetrics, request.SerializeAsString(), sampling::new_batch_id(), stream};
}

Batch reference_batches_batch(const tierwise::v1::ReferenceBatches& request, size_t stream) {
  return Batch{Endpoint::kReferenceBatches, request.SerializeAsString(), sampling::new_batch_id(), stream};
}

}  // namespace tierwise::exporter
