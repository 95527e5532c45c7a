// Export payloads as sender batches: serialized protobuf plus the batch id that
// ingest deduplicates on (X-Tierwise-Batch-Id).
#pragma once

#include <cstddef>

#include "export/http_sender.hpp"
#include "export/otlp_metrics.hpp"
#include "tierwise/v1/reference_batch.pb.h"

namespace tierwise::exporter {

// An OTLP metrics request for POST /v1/metrics with a new random UUID as its id.
Batch metrics_batch(const ExportMetricsServiceRequest& request, size_t stream);

// A host's ReferenceBatches for POST /v1/refs/batches with a new random UUID as its id
// (each batch keeps its own ReferenceBatch.batch_id and sequence).
Batch reference_batches_batch(const tierwise::v1::ReferenceBatches& request, size_t stream);

}  // namespace tierwise::exporter
