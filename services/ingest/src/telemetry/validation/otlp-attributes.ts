import { closeMessage, messageEnd, nextTag, readUtf8, skimMessage, utf8Text, WireType, type WireReader } from '@tierwise/proto';

/**
 * Reading OTLP `KeyValue` attributes (opentelemetry/proto/common/v1/common.proto) from the wire
 * for the metrics validation: the key and, when the value is a string, the string, as byte
 * offsets of the request; every string checked to be UTF-8 and every nested value walked as
 * protobuf-java would parse it (`skimMessage`).
 */

/** Where one KeyValue's key and string value lie in the reader's bytes. */
export interface KeyValueRange {
  keyStart: number;
  keyEnd: number;
  /** -1 when the value is absent or not a `string_value` (its oneof holds another kind). */
  stringStart: number;
  stringEnd: number;
}

/** A new {@link KeyValueRange} to reuse across calls. */
export function keyValueRange(): KeyValueRange {
  return { keyStart: 0, keyEnd: 0, stringStart: -1, stringEnd: -1 };
}

const ANY_VALUE_STRING = 1;
/** AnyValue's oneof members that hold a message, with their type, to be walked for validity. */
const ANY_VALUE_MESSAGES: ReadonlyMap<number, string> = new Map([
  [5, 'opentelemetry.proto.common.v1.ArrayValue'],
  [6, 'opentelemetry.proto.common.v1.KeyValueList'],
]);
/** AnyValue's other oneof members with their wire types: bool, int, double, bytes, string index. */
const ANY_VALUE_SCALARS: ReadonlyMap<number, number> = new Map([
  [2, WireType.VARINT],
  [3, WireType.VARINT],
  [4, WireType.I64],
  [7, WireType.LEN],
  [8, WireType.VARINT],
]);

const range = { start: 0, end: 0 };

/**
 * Reads the KeyValue message whose length is at `reader.pos` into `out`. Fields repeated on the
 * wire merge as protobuf-java merges them: the last key, and the value's oneof member set last.
 * @param depth the KeyValue's nesting depth.
 * @throws Error when the bytes are not a valid KeyValue.
 */
export function readKeyValue(reader: WireReader, depth: number, out: KeyValueRange): void {
  const end = messageEnd(reader, depth);
  out.keyStart = out.keyEnd = reader.pos;
  out.stringStart = out.stringEnd = -1;
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 1 && wireType === WireType.LEN) {
      readUtf8(reader, range);
      out.keyStart = range.start;
      out.keyEnd = range.end;
    } else if (field === 2 && wireType === WireType.LEN) {
      readAnyValue(reader, depth + 1, out);
    } else {
      reader.skipType(wireType, depth, field);
    }
  }
  closeMessage(reader, end);
}

function readAnyValue(reader: WireReader, depth: number, out: KeyValueRange): void {
  const end = messageEnd(reader, depth);
  while (reader.pos < end) {
    const tag = nextTag(reader);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === ANY_VALUE_STRING && wireType === WireType.LEN) {
      readUtf8(reader, range);
      out.stringStart = range.start;
      out.stringEnd = range.end;
      continue;
    }
    const message = ANY_VALUE_MESSAGES.get(field);
    if (message !== undefined && wireType === WireType.LEN) {
      skimMessage(reader, messageEnd(reader, depth + 1), message, depth + 1);
    } else {
      reader.skipType(wireType, depth, field);
      if (ANY_VALUE_SCALARS.get(field) !== wireType) continue;
    }
    out.stringStart = out.stringEnd = -1;
  }
  closeMessage(reader, end);
}

/** The key of `kv` as a string. */
export function keyOf(reader: WireReader, kv: KeyValueRange): string {
  return utf8Text(reader.buf, kv.keyStart, kv.keyEnd);
}

/** The string value of `kv`, or null when it has none. */
export function stringOf(reader: WireReader, kv: KeyValueRange): string | null {
  return kv.stringStart < 0 ? null : utf8Text(reader.buf, kv.stringStart, kv.stringEnd);
}

/** Whether `bytes[start, end)` are the bytes of `expected`. */
export function bytesEqual(bytes: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) {
    if (bytes[start + i] !== expected[i]) return false;
  }
  return true;
}
