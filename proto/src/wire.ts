import { isUtf8 } from "node:buffer";
import * as protobuf from "protobufjs";
import { schema } from "./schema";

/**
 * Reading protobuf bytes in place, field by field, with protobufjs' `Reader`, for a validator
 * that must refuse what protobuf-java's parser refuses (the stream jobs parse with it) without
 * building the message (docs/fleet-scale.md, ingest's decode). Every function throws a plain
 * `Error` (or protobufjs' `RangeError` for a truncated field) whose message says what is wrong
 * and where; the caller names the message it was reading.
 *
 * The rules, as protobuf-java applies them (protobuf.dev/programming-guides/encoding):
 * - a field whose wire type is not its declared one is an unknown field, skipped;
 * - a field may not run past the end of its enclosing message, and field number 0 is invalid;
 * - a proto3 `string` must be valid UTF-8;
 * - messages nest at most {@link MAX_MESSAGE_DEPTH} deep.
 */

/** protobufjs' reader: `buf` the bytes, `pos` the offset of the next field, `len` the end. */
export type WireReader = protobuf.Reader;

/** A reader of `bytes` from offset 0 (a view: nothing is copied). */
export function wireReader(bytes: Uint8Array): WireReader {
  return protobuf.Reader.create(bytes);
}

/** The text of the UTF-8 bytes `bytes[start, end)`. */
export function utf8Text(bytes: Uint8Array, start: number, end: number): string {
  return protobuf.util.utf8.read(bytes, start, end);
}

/** Wire types (protobuf.dev/programming-guides/encoding "Message Structure"). */
export const WireType = { VARINT: 0, I64: 1, LEN: 2, I32: 5 } as const;

/** Nesting depth at which protobuf-java stops parsing (CodedInputStream's default recursion limit). */
export const MAX_MESSAGE_DEPTH = 100;

/**
 * Reads the length of the embedded message that starts at `reader.pos` (after its tag).
 * @param depth the nesting depth of that message (a request's own fields are at depth 1).
 * @returns the offset just past the message.
 * @throws Error when it runs past the end of `reader`'s bytes or nests too deep.
 */
export function messageEnd(reader: WireReader, depth: number): number {
  if (depth >= MAX_MESSAGE_DEPTH) {
    throw new Error(`messages nest more than ${MAX_MESSAGE_DEPTH} deep at offset ${reader.pos}`);
  }
  return lengthEnd(reader);
}

/** Reads the length of the length-delimited field at `reader.pos`; returns the offset past it. */
function lengthEnd(reader: WireReader): number {
  const length = reader.uint32();
  const end = reader.pos + length;
  if (end > reader.len) {
    throw new Error(`a length of ${length} at offset ${reader.pos} runs past the end`);
  }
  return end;
}

/**
 * Reads the length of the packed run of `width`-byte scalars (fixed64, double: 8; fixed32,
 * float: 4) at `reader.pos`.
 * @returns the offset just past the run; its values start at `reader.pos`.
 * @throws Error when it runs past the end or does not hold whole values.
 */
export function packedEnd(reader: WireReader, width: number): number {
  const end = lengthEnd(reader);
  if ((end - reader.pos) % width !== 0) {
    throw new Error(`a packed field at offset ${reader.pos} does not hold whole ${width}-byte values`);
  }
  return end;
}

/**
 * Reads the tag of the next field: its number is `tag >>> 3`, its wire type `tag & 7`.
 * @throws Error on field number 0.
 */
export function nextTag(reader: WireReader): number {
  const tag = reader.uint32();
  if (tag >>> 3 === 0) {
    throw new Error(`field number 0 at offset ${reader.pos}`);
  }
  return tag;
}

/**
 * Checks that the fields of the message ending at `end` ended there (the last one did not run
 * past it into the enclosing message).
 * @throws Error otherwise.
 */
export function closeMessage(reader: WireReader, end: number): void {
  if (reader.pos !== end) {
    throw new Error(`a field runs past the end of its message at offset ${end}`);
  }
}

/**
 * Reads the string field at `reader.pos` (after its tag) in place: writes the offsets of its
 * bytes in `reader.buf` to `range` (`[start, end)`) and moves past it.
 * @throws Error when it is not valid UTF-8 or runs past the end.
 */
export function readUtf8(reader: WireReader, range: { start: number; end: number }): void {
  const end = lengthEnd(reader);
  const start = reader.pos;
  if (!isUtf8Range(reader.buf, start, end)) {
    throw new Error(`a string at offset ${start} is not valid UTF-8`);
  }
  reader.pos = end;
  range.start = start;
  range.end = end;
}

/** Whether `bytes[start, end)` is valid UTF-8 (an ASCII run is checked here, the rest by Node). */
function isUtf8Range(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    if (bytes[i] >= 0x80) {
      return isUtf8(bytes.subarray(start, end));
    }
  }
  return true;
}

/** What {@link skimMessage} needs of one field: the wire type it must have, what it holds. */
interface SkimField {
  wireType: number;
  /** A packed repeated scalar also arrives length-delimited. */
  packable: boolean;
  utf8: boolean;
  message: SkimType | null;
}
type SkimType = Map<number, SkimField>;

/** Skim plans by the type's fully qualified name, without protobufjs' leading dot. */
const skimTypes = new Map<string, SkimType>();

/** The skim plan of `type` (built once per type from the schema's reflection). */
function skimType(type: protobuf.Type): SkimType {
  const name = type.fullName.slice(1);
  let plan = skimTypes.get(name);
  if (plan) return plan;
  plan = new Map();
  skimTypes.set(name, plan);
  for (const field of type.fieldsArray) {
    const resolved = field.resolve().resolvedType;
    const message = resolved instanceof protobuf.Type ? skimType(resolved) : null;
    const wireType = message ? WireType.LEN : resolved instanceof protobuf.Enum ? WireType.VARINT : (protobuf.types.basic as Record<string, number>)[field.type];
    plan.set(field.id, {
      wireType,
      packable: field.repeated && !message && field.type !== "string" && field.type !== "bytes",
      utf8: field.type === "string",
      message,
    });
  }
  return plan;
}

/**
 * Walks the message of type `typeName` (a name of the schema, e.g.
 * `opentelemetry.proto.common.v1.InstrumentationScope`) between `reader.pos` and `end`, the way
 * protobuf-java would parse it, building nothing; leaves `reader.pos` at `end`.
 * @param depth the message's nesting depth.
 * @throws Error naming the first thing protobuf-java would refuse.
 */
export function skimMessage(reader: WireReader, end: number, typeName: string, depth: number): void {
  skim(reader, end, skimTypes.get(typeName) ?? skimType(schema().lookupType(typeName)), depth);
}

const scratch = { start: 0, end: 0 };

function skim(reader: WireReader, end: number, plan: SkimType, depth: number): void {
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const wireType = tag & 7;
    const field = plan.get(tag >>> 3);
    if (field?.message && wireType === WireType.LEN) {
      const inner = messageEnd(reader, depth + 1);
      skim(reader, inner, field.message, depth + 1);
    } else if (field?.utf8 && wireType === WireType.LEN) {
      readUtf8(reader, scratch);
    } else if (field?.packable && wireType === WireType.LEN) {
      skimPacked(reader, field.wireType);
    } else {
      reader.skipType(wireType, depth, tag >>> 3);
    }
  }
  closeMessage(reader, end);
}

/** Skips a packed run of scalars of `wireType`, checking it holds whole values. */
function skimPacked(reader: WireReader, wireType: number): void {
  if (wireType === WireType.I64 || wireType === WireType.I32) {
    reader.pos = packedEnd(reader, wireType === WireType.I64 ? 8 : 4);
    return;
  }
  const end = lengthEnd(reader);
  while (reader.pos < end) reader.skip();
  closeMessage(reader, end);
}
