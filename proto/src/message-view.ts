import type { Long } from "./types";

/**
 * Whether `field` of a decoded message ({@link MessageView}) was in its bytes: protobufjs assigns
 * only what it decodes and keeps the defaults on the prototype, so a oneof member or a proto3
 * `optional` field is set exactly when it is an own property.
 */
export function isSet(message: object, field: string): boolean {
  return Object.hasOwn(message, field);
}

/** The exact value of a decoded 64-bit integer. */
export function longToBigInt(value: Long): bigint {
  const bits = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
  return value.unsigned ? bits : BigInt.asIntN(64, bits);
}

/**
 * A decoded 64-bit integer as a number: exact while its magnitude is at most
 * `Number.MAX_SAFE_INTEGER` (2^53 - 1), rounded to the nearest double beyond.
 */
export function longToNumber(value: Long): number {
  return (value.unsigned ? value.high >>> 0 : value.high) * 2 ** 32 + (value.low >>> 0);
}
