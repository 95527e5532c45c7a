import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { resolveProtoDir, type Json } from "../src/index";

/** proto/testdata, the committed golden vectors. */
export const TESTDATA_DIR = path.join(resolveProtoDir(), "testdata");

/** One entry of testdata/manifest.json: vector name and fully qualified message type. */
export interface GoldenEntry {
  name: string;
  type: string;
}

export const manifest = (): GoldenEntry[] =>
  JSON.parse(readFileSync(path.join(TESTDATA_DIR, "manifest.json"), "utf8")) as GoldenEntry[];

export const goldenBin = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(TESTDATA_DIR, `${name}.bin`)));

export const goldenJson = (name: string): Json =>
  JSON.parse(readFileSync(path.join(TESTDATA_DIR, `${name}.json`), "utf8")) as Json;

/** Asserts byte equality, showing a hex diff on failure. */
export function assertSameBytes(actual: Uint8Array, expected: Uint8Array, message?: string): void {
  const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
  assert.equal(hex(actual), hex(expected), message);
}
