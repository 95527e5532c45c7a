/**
 * Cross-check with Google's C++ protobuf (protoc 3.21, apt protobuf-compiler, also used by the
 * agent build): protoc reads every golden .bin, and re-serializes it to the same bytes.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, it } from "node:test";
import { OTLP_METRICS_SERVICE_PROTO, resolveProtoDir, TIERWISE_PROTOS } from "../src/index";
import { assertSameBytes, goldenBin, manifest } from "./golden-files";

const protoDir = resolveProtoDir();
const protoc = (args: string[], input: Uint8Array | string): Buffer =>
  execFileSync(
    "protoc",
    ["-I", protoDir, "-I", path.join(protoDir, "gen", "otlp"), ...args, OTLP_METRICS_SERVICE_PROTO, ...TIERWISE_PROTOS],
    { input, maxBuffer: 1 << 24 },
  );

describe("protoc (C++ libprotobuf) agrees with the golden vectors", () => {
  for (const { name, type } of manifest()) {
    it(`${name}: protoc --decode then --encode gives the same bytes`, () => {
      const bin = goldenBin(name);
      const text = protoc([`--decode=${type}`], bin).toString("utf8");
      assertSameBytes(protoc([`--encode=${type}`], text), bin);
    });
  }

  it("reads the largest block hash as unsigned 64-bit", () => {
    const text = protoc(["--decode=tierwise.v1.ReferenceBatch"], goldenBin("reference_batch")).toString("utf8");
    assert.match(text, /block_hash: 18446744073709551615\n/);
    assert.match(text, /block_hash: 9223372036854775809\n/);
  });
});
