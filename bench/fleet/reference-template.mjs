/**
 * A reference batch made ready to be sent again and again cheaply: encoded once, with the byte
 * offsets of what changes per send, so that a copy is patched in place instead of re-encoded
 * (a fleet sends hundreds of thousands of references per second).
 *
 * referenceTemplate(batch) -> {body, references, offsets}: batch (a decoded ReferenceBatch)
 *   encoded with a batch id slot of 36 characters (a UUID's length, overwritten by every send)
 *   and no sequence
 * patchReferenceBatch(template, {batchId, hostId, volumeId, shiftNano, saltBits, sequence}) -> Buffer
 *   batchId: a UUID (36 characters); hostId, volumeId: the template's lengths; shiftNano: added to
 *   base_time_unix_nano (bigint); saltBits: XORed into every block_hash (bigint); sequence: the
 *   batch's sequence number, appended as field 8 (the last occurrence of a scalar field wins,
 *   protobuf encoding spec, "Last One Wins")
 */
import protobuf from 'protobufjs';
import proto from '@tierwise/proto';

const { ReferenceBatch } = proto;
const BATCH_ID_SLOT = ' '.repeat(36);
const FIELD = { batchId: 1, hostId: 2, volumeId: 3, baseTime: 6, references: 7, sequence: 8 };
const LENGTH_DELIMITED = 2;

export function referenceTemplate(batch) {
  const body = Buffer.from(ReferenceBatch.encode({ ...batch, batchId: BATCH_ID_SLOT, sequence: 0n }));
  const offsets = { hashes: [] };
  const reader = protobuf.Reader.create(body);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if (field === FIELD.baseTime) {
      offsets.baseTime = reader.pos;
      reader.skip(8);
    } else if (field === FIELD.references) {
      const end = reader.uint32() + reader.pos;
      while (reader.pos < end) {
        const inner = reader.uint32();
        if (inner >>> 3 === 1) offsets.hashes.push(reader.pos);
        reader.skipType(inner & 7);
      }
    } else if ((tag & 7) === LENGTH_DELIMITED && [FIELD.batchId, FIELD.hostId, FIELD.volumeId].includes(field)) {
      const length = reader.uint32();
      offsets[Object.keys(FIELD).find((k) => FIELD[k] === field)] = reader.pos;
      reader.skip(length);
    } else {
      reader.skipType(tag & 7);
    }
  }
  return { body, references: batch.references.length, offsets };
}

export function patchReferenceBatch(template, { batchId, hostId, volumeId, shiftNano, saltBits, sequence }) {
  const { offsets } = template;
  const sequenceField = protobuf.Writer.create().uint32((FIELD.sequence << 3) | 0).uint64(sequence).finish();
  const body = Buffer.concat([template.body, sequenceField]);
  body.write(batchId, offsets.batchId, 'latin1');
  body.write(hostId, offsets.hostId, 'latin1');
  body.write(volumeId, offsets.volumeId, 'latin1');
  body.writeBigUInt64LE(body.readBigUInt64LE(offsets.baseTime) + shiftNano, offsets.baseTime);
  for (const at of offsets.hashes) body.writeBigUInt64LE(body.readBigUInt64LE(at) ^ saltBits, at);
  return body;
}
