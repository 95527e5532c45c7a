// The disk spool as `replay` and `send-spool` present it: where it lives by
// default, its summary line, its JSON fields and its exit code.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "export/http_sender.hpp"

namespace tierwise::replay {

// `spool_dir` when non-empty, else $TIERWISE_AGENT_SPOOL_DIR when set and
// non-empty, else "spool" in the directory of `key_file` (the tenant key file).
std::string resolve_spool_dir(const std::string& spool_dir, const std::string& key_file);

// One line: "spool DIR: S spooled, F sent from the spool, R rejected, D dropped
// at the bound, L left".
void print_spool_summary(std::ostream& out, const exporter::SpoolStats& s);

// One line on the second destination (SenderConfig::collector_url) when the
// sender has one: metric batches sent, rejected and failed (streams 0..streams-1), and the first problem.
void print_collector_summary(std::ostream& out, const exporter::HttpSender& sender, size_t streams);

// {spool_dir, spooled_batches, sent_from_spool, spool_rejected_batches,
//  spool_dropped_batches, spool_left_batches} added to `j`.
void add_spool_json(nlohmann::json& j, const exporter::SpoolStats& s);

// kExitRejected when spooled batches were rejected, else kExitUndelivered
// when batches are left in the spool or were dropped at its bound (printing
// "N batches left in the spool DIR; they are sent by the next run" on
// stderr), else kExitOk.
int spool_exit_code(const exporter::SpoolStats& s);

}  // namespace tierwise::replay
