import * as protobuf from "protobufjs";
import { ProtoDecodeError, ProtoEncodeError } from "./errors";
import { schema } from "./schema";
import type { MessageInput, MessageView } from "./types";

/** A JSON value (what `JSON.parse` returns). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Decoded shape: 64-bit as bigint, all non-oneof fields filled with defaults. */
const DECODED: protobuf.IConversionOptions = { longs: BigInt, defaults: true };
/**
 * proto3 canonical JSON mapping (protobuf.dev/programming-guides/json): lowerCamelCase names,
 * 64-bit integers as decimal strings, enums by name, bytes as base64, default values omitted.
 */
const PROTO3_JSON: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, json: true };

/** Encoder/decoder of one message type; the schema is loaded from disk on first use. */
export interface MessageCodec<T> {
  /** Fully qualified message name, e.g. `tierwise.v1.ReferenceBatch`. */
  readonly typeName: string;
  /** The protobufjs reflection type. */
  readonly type: protobuf.Type;
  /**
   * Decodes binary protobuf. Unknown fields are skipped.
   * @throws ProtoDecodeError when `bytes` is not a Uint8Array or not a valid encoding.
   */
  decode(bytes: Uint8Array): T;
  /**
   * Decodes binary protobuf into the message protobufjs builds ({@link MessageView}), without
   * `decode`'s conversion to the plain shape, which copies every field again (64-bit integers to
   * bigint): for a reader that visits each field once, such as a validator of every request.
   * Unknown fields are skipped.
   * @throws ProtoDecodeError as `decode`.
   */
  decodeMessage(bytes: Uint8Array): MessageView<T>;
  /**
   * Encodes to binary protobuf (fields in number order, proto3 defaults omitted, packed
   * repeated scalars: the same bytes as protoc-generated C++/Java serializers). Scalars are
   * coerced like protobufjs `fromObject` (64-bit from bigint, number or decimal string).
   * @throws ProtoEncodeError when `value` or a nested field is not an object / array where
   *   the schema needs one.
   */
  encode(value: MessageInput<T>): Uint8Array;
  /** The proto3 canonical JSON form of `value` (see the golden vectors' README). */
  toJson(value: MessageInput<T>): Json;
  /**
   * Reads the proto3 JSON form (lowerCamelCase names; enums by name or number; 64-bit as
   * strings or numbers; bytes as base64) into the decoded shape. Unknown keys are ignored.
   * @throws ProtoEncodeError when `json` or a nested field is not an object / array where
   *   the schema needs one.
   */
  fromJson(json: Json): T;
}

/** Builds the codec of the message `typeName` of {@link schema}. */
export function messageCodec<T>(typeName: string): MessageCodec<T> {
  let resolved: protobuf.Type | undefined;
  const type = (): protobuf.Type => (resolved ??= schema().lookupType(typeName));

  const toMessage = (value: unknown): protobuf.Message => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ProtoEncodeError(typeName, `expected an object, got ${Array.isArray(value) ? "an array" : String(value)}`);
    }
    try {
      return type().fromObject(value as Record<string, unknown>);
    } catch (err) {
      throw new ProtoEncodeError(typeName, (err as Error).message);
    }
  };

  const decodeMessage = (bytes: Uint8Array): protobuf.Message => {
    if (!(bytes instanceof Uint8Array)) {
      throw new ProtoDecodeError(typeName, `expected bytes (Uint8Array), got ${typeof bytes}`);
    }
    try {
      return type().decode(bytes);
    } catch (err) {
      throw new ProtoDecodeError(typeName, (err as Error).message);
    }
  };

  return {
    typeName,
    get type() {
      return type();
    },
    decode(bytes) {
      return type().toObject(decodeMessage(bytes), DECODED) as T;
    },
    decodeMessage(bytes) {
      return decodeMessage(bytes) as unknown as MessageView<T>;
    },
    encode(value) {
      return type().encode(toMessage(value)).finish();
    },
    toJson(value) {
      return type().toObject(toMessage(value), PROTO3_JSON) as Json;
    },
    fromJson(json) {
      return type().toObject(toMessage(json), DECODED) as T;
    },
  };
}
