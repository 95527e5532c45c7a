/** Error behaviour of the codecs and of the schema loading. */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { EvictionPolicy, loadSchema, ProtoDecodeError, ProtoEncodeError, ReferenceBatch, resolveProtoDir } from "../src/index";
import { goldenBin } from "./golden-files";

describe("decode errors", () => {
  const bin = goldenBin("reference_batch");

  it("rejects truncated bytes with ProtoDecodeError naming the type and reason", () => {
    assert.throws(
      () => ReferenceBatch.decode(bin.subarray(0, bin.length - 5)),
      (err: unknown) =>
        err instanceof ProtoDecodeError &&
        err.typeName === "tierwise.v1.ReferenceBatch" &&
        /index out of range/.test(err.reason) &&
        err.message.startsWith("not a valid tierwise.v1.ReferenceBatch: "),
    );
  });

  it("rejects an invalid wire type", () => {
    assert.throws(
      () => ReferenceBatch.decode(Buffer.from("hello world, not protobuf")),
      (err: unknown) => err instanceof ProtoDecodeError && /invalid wire type/.test(err.reason),
    );
  });

  it("rejects input that is not bytes", () => {
    assert.throws(() => ReferenceBatch.decode("abc" as unknown as Uint8Array), ProtoDecodeError);
  });

  it("decodes empty bytes as the empty message (valid protobuf)", () => {
    const empty = ReferenceBatch.decode(new Uint8Array());
    assert.equal(empty.batchId, "");
    assert.deepEqual(empty.references, []);
  });

  it("decodes an eviction policy this schema does not know as its number (proto3 open enum)", () => {
    const batch = ReferenceBatch.decode(ReferenceBatch.encode({ miniaturePolicies: [EvictionPolicy.LRU, 9 as EvictionPolicy] }));
    assert.deepEqual(batch.miniaturePolicies, [1, 9]);
    assert.deepEqual(batch.miniatureSimulations, []);
  });
});

describe("encode errors", () => {
  it("rejects a scalar where the schema needs a repeated message", () => {
    assert.throws(
      () => ReferenceBatch.encode({ references: "x" } as never),
      (err: unknown) => err instanceof ProtoEncodeError && /references: array expected/.test(err.reason),
    );
  });

  it("rejects a non-object message", () => {
    assert.throws(() => ReferenceBatch.encode(null as never), ProtoEncodeError);
  });
});

describe("proto directory", () => {
  it("finds the package directory from the compiled module", () => {
    assert.ok(resolveProtoDir({}).endsWith(`${path.sep}proto`));
  });

  it("honours TIERWISE_PROTO_DIR and names it when wrong", () => {
    const dir = resolveProtoDir({});
    assert.equal(resolveProtoDir({ TIERWISE_PROTO_DIR: dir }), dir);
    assert.throws(() => resolveProtoDir({ TIERWISE_PROTO_DIR: tmpdir() }), /TIERWISE_PROTO_DIR=.* does not contain/);
  });

  it("says to run the build when the OTLP protos are not unpacked", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "tierwise-proto-"));
    try {
      cpSync(path.join(resolveProtoDir({}), "tierwise"), path.join(copy, "tierwise"), { recursive: true });
      assert.throws(() => loadSchema(copy), /OTLP protos missing in .*npm run build -w @tierwise\/proto/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
