import { existsSync } from "node:fs";
import * as path from "node:path";
import * as protobuf from "protobufjs";
import { resolveProtoDir } from "./proto-dir";

/** OTLP entry file (relative to `gen/otlp/`); its imports bring in metrics, resource, common. */
export const OTLP_METRICS_SERVICE_PROTO = "opentelemetry/proto/collector/metrics/v1/metrics_service.proto";
/** Tierwise contract files (relative to the proto package directory). */
export const TIERWISE_PROTOS = ["tierwise/v1/reference_batch.proto", "tierwise/v1/ingest_record.proto"];

/**
 * Parses the OTLP metrics service protos (from `<protoDir>/gen/otlp`) and the Tierwise protos
 * (from `<protoDir>`) into one protobufjs Root, field names camelCased (`keepCase: false`).
 * Imports resolve against those two include directories, like `protoc -I`.
 *
 * @param protoDir the proto package directory; default {@link resolveProtoDir}.
 * @throws Error when the OTLP protos have not been unpacked (build not run) or a file does not parse.
 */
export function loadSchema(protoDir: string = resolveProtoDir()): protobuf.Root {
  const otlpDir = path.join(protoDir, "gen", "otlp");
  if (!existsSync(path.join(otlpDir, OTLP_METRICS_SERVICE_PROTO))) {
    throw new Error(
      `OTLP protos missing in ${otlpDir}: run \`npm run build -w @tierwise/proto\` to unpack them`,
    );
  }
  const includeDirs = [protoDir, otlpDir];
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    if (path.isAbsolute(target)) return target;
    const found = includeDirs.map((dir) => path.join(dir, target)).find((p) => existsSync(p));
    return found ?? path.join(protoDir, target);
  };
  root.loadSync([OTLP_METRICS_SERVICE_PROTO, ...TIERWISE_PROTOS], { keepCase: false });
  root.resolveAll();
  return root;
}

let cached: protobuf.Root | undefined;

/** The schema of the default proto directory, parsed from disk on first use and then reused. */
export function schema(): protobuf.Root {
  cached ??= loadSchema();
  return cached;
}
