/** Thrown when bytes are not a valid encoding of the expected protobuf message. */
export class ProtoDecodeError extends Error {
  override readonly name = "ProtoDecodeError";

  /**
   * @param typeName fully qualified message name, e.g. `tierwise.v1.ReferenceBatch`.
   * @param reason what is wrong with the bytes (from the protobuf reader), e.g.
   *   `invalid wire type 7 at offset 1` or `index out of range: 2 + 5 > 3` (truncated).
   */
  constructor(
    readonly typeName: string,
    readonly reason: string,
  ) {
    super(`not a valid ${typeName}: ${reason}`);
  }
}

/** Thrown when a value cannot be converted to the given message (wrong structure). */
export class ProtoEncodeError extends Error {
  override readonly name = "ProtoEncodeError";

  /**
   * @param typeName fully qualified message name.
   * @param reason the offending field, as reported by protobufjs `fromObject`
   *   (e.g. `.tierwise.v1.ReferenceBatch.references: array expected`).
   */
  constructor(
    readonly typeName: string,
    readonly reason: string,
  ) {
    super(`cannot encode ${typeName}: ${reason}`);
  }
}
