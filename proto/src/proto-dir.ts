import { existsSync } from "node:fs";
import * as path from "node:path";

/** A file that marks the proto package directory (the one holding `tierwise/v1/`). */
const MARKER = path.join("tierwise", "v1", "reference_batch.proto");

/**
 * Directory of the `@tierwise/proto` package: it holds `tierwise/v1/*.proto` and, after the
 * build, `gen/otlp/` (the unpacked OTLP protos).
 *
 * `TIERWISE_PROTO_DIR` overrides it; otherwise the nearest ancestor of this module holding
 * `tierwise/v1/reference_batch.proto` (works from `src/` and from `dist/src/`).
 *
 * @throws Error when `TIERWISE_PROTO_DIR` does not hold the Tierwise protos, or no ancestor does.
 */
export function resolveProtoDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.TIERWISE_PROTO_DIR;
  if (override) {
    const dir = path.resolve(override);
    if (!existsSync(path.join(dir, MARKER))) {
      throw new Error(`TIERWISE_PROTO_DIR=${override} does not contain ${MARKER}`);
    }
    return dir;
  }
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, MARKER))) return dir;
    if (path.dirname(dir) === dir) {
      throw new Error(`no ${MARKER} in any parent of ${__dirname}; set TIERWISE_PROTO_DIR`);
    }
  }
}
