// Exit codes of every tierwise-agent command, declared once. The commands'
// --help footers and the README name these numbers: they never change.
// A subcommand ends with a non-zero code by throwing CLI::RuntimeError(code)
// from its callback (src/cli); the libraries return them (replay::run_replay,
// serve::run_serve).
#pragma once

namespace tierwise {

enum ExitCode : int {
  kExitOk = 0,
  // Failure: the datastore, io_uring, the socket, an output file, the service
  // unreachable (enroll), a failed final flush.
  kExitFailure = 1,
  // Bad command line or configuration, or a trace that cannot be opened,
  // recognised or read to its end.
  kExitUsage = 2,
  // The command finished, but the trace had malformed records (reported on
  // stderr and skipped; the rest was read).
  kExitMalformed = 3,
  // The service rejected batches or the request (a 4xx other than 429, e.g.
  // 401 for a bad token, or an unknown enrollment token).
  kExitRejected = 4,
  // Batches not delivered: left in the spool, dropped at its bound, or lost
  // (spool not writable).
  kExitUndelivered = 5,
};

}  // namespace tierwise
