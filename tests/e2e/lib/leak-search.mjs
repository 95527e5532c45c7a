// Searches captured bytes for what must never leave a host (docs/anonymity.md):
// names and paths as text, block addresses in every encoding a leak could take.
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';

/**
 * Smallest address searched per encoding, so that a hit is not a coincidence with the random
 * bytes of the keyed hashes the agent does send: a 5-byte varint has odds of about 1 in 2^40 per
 * position of matching a given value, a 4-byte one only 1 in 2^32 (too many false alarms over
 * megabytes of hashes and thousands of addresses); decimal text needs 7 digits for the same
 * reason (digit runs appear in headers and ids). A fixed 64-bit value needs 5 significant bytes:
 * with 4, its pattern (4 bytes, then 4 zeros) turns up where a small sfixed64 counter follows
 * its field tag (found so: a 0x31 tag and 188,416 bytes read as the 4 KiB block 48,234,545).
 */
export const MIN_VARINT = 1n << 28n;
export const MIN_FIXED64 = 1n << 32n;
export const MIN_DECIMAL = 1_000_000n;

const U64 = (1n << 64n) - 1n;

/** The protobuf varint of `value` (a BigInt >= 0). */
export function varint(value) {
  const out = [];
  let v = value;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

/** The encodings of `value` a search looks for: [{encoding, bytes}] (only those above their minimum). */
export function encodings(value) {
  const list = [];
  if (value >= MIN_DECIMAL) list.push({ encoding: 'decimal', bytes: Buffer.from(value.toString(), 'latin1') });
  if (value >= MIN_VARINT) {
    list.push({ encoding: 'varint', bytes: varint(value) });
    list.push({ encoding: 'zigzag varint', bytes: varint((value << 1n) & U64) });
  }
  if (value >= MIN_FIXED64) {
    const le = Buffer.alloc(8);
    le.writeBigUInt64LE(value);
    const be = Buffer.alloc(8);
    be.writeBigUInt64BE(value);
    list.push({ encoding: 'fixed64 LE', bytes: le }, { encoding: 'fixed64 BE', bytes: be });
  }
  return list;
}

const MIN_VARINT_N = Number(MIN_VARINT);
const MIN_FIXED64_N = Number(MIN_FIXED64);
const MIN_DECIMAL_N = Number(MIN_DECIMAL);
const TWO_32 = 2 ** 32;

/**
 * An index of block addresses: `add(value, label)` for each address (a BigInt or integer below
 * 2^53: a byte offset, a 512-byte sector or a 4 KiB block number), then `search(buffer)` finds
 * every occurrence of any of their encodings in one pass: [{encoding, value (BigInt), label, offset}].
 * The pass works on doubles (exact below 2^53), so a few megabytes take well under a second.
 */
export class AddressIndex {
  constructor() {
    this.byValue = new Map(); // Number(value) -> label
  }

  add(value, label) {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`address ${value} is not below 2^53`);
    if (!this.byValue.has(n)) this.byValue.set(n, label);
  }

  /** The label of `value` (BigInt or number) when it is an indexed address, else undefined. */
  label(value) {
    return this.byValue.get(Number(value));
  }

  /** How many addresses each encoding covers. */
  coverage() {
    const counts = { decimal: 0, varint: 0, 'fixed64 LE/BE': 0 };
    for (const value of this.byValue.keys()) {
      if (value >= MIN_DECIMAL_N) counts.decimal += 1;
      if (value >= MIN_VARINT_N) counts.varint += 1;
      if (value >= MIN_FIXED64_N) counts['fixed64 LE/BE'] += 1;
    }
    return counts;
  }

  search(buffer) {
    const hits = [];
    const hit = (encoding, value, offset) => hits.push({ encoding, value: BigInt(value), label: this.byValue.get(value), offset });
    // Decimal text: maximal runs of digits.
    const text = buffer.toString('latin1');
    for (const m of text.matchAll(/\d{7,16}/g)) {
      const value = Number(m[0]);
      if (value >= MIN_DECIMAL_N && this.byValue.has(value)) hit('decimal', value, m.index);
    }
    const n = buffer.length;
    for (let i = 0; i < n; i += 1) {
      // A varint starting here: exact while it stays below 2^53 (7 groups + 4 bits).
      let value = 0;
      let scale = 1;
      for (let j = 0; j < 8 && i + j < n; j += 1) {
        const byte = buffer[i + j];
        value += (byte & 0x7f) * scale;
        scale *= 128;
        if ((byte & 0x80) === 0) {
          if (value >= MIN_VARINT_N && value <= Number.MAX_SAFE_INTEGER) {
            if (this.byValue.has(value)) hit('varint', value, i);
            if (value % 2 === 0 && value / 2 >= MIN_VARINT_N && this.byValue.has(value / 2)) hit('zigzag varint', value / 2, i);
          }
          break;
        }
      }
      if (i + 8 <= n) {
        const lo = buffer.readUInt32LE(i);
        const hi = buffer.readUInt32LE(i + 4);
        if (hi < 0x200000) {
          const le = hi * TWO_32 + lo;
          if (le >= MIN_FIXED64_N && this.byValue.has(le)) hit('fixed64 LE', le, i);
        }
        const bhi = buffer.readUInt32BE(i);
        if (bhi < 0x200000) {
          const be = bhi * TWO_32 + buffer.readUInt32BE(i + 4);
          if (be >= MIN_FIXED64_N && this.byValue.has(be)) hit('fixed64 BE', be, i);
        }
      }
    }
    return hits;
  }
}

/** Every occurrence of each of `needles` (strings, case-insensitive) in `buffer`: [{needle, offset}]. */
export function findStrings(buffer, needles) {
  const text = buffer.toString('latin1').toLowerCase();
  const hits = [];
  for (const needle of needles) {
    const n = needle.toLowerCase();
    for (let at = text.indexOf(n); at !== -1; at = text.indexOf(n, at + 1)) hits.push({ needle, offset: at });
  }
  return hits;
}

/**
 * Splits the bytes a client sent on one connection into HTTP/1.1 requests (Content-Length
 * bodies; what libcurl sends for a body of known size): [{method, path, headers, head, body}]
 * with lower-case header names and the body with its Content-Encoding undone.
 * @throws Error when the bytes are not a whole number of such requests (so nothing escapes decoding).
 */
export function splitHttpRequests(bytes) {
  const requests = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at, 'latin1');
    if (end === -1) throw new Error(`incomplete HTTP head at byte ${at}`);
    const head = bytes.subarray(at, end).toString('latin1');
    const [requestLine, ...lines] = head.split('\r\n');
    const [method, path] = requestLine.split(' ');
    const headers = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headers['transfer-encoding']) throw new Error(`unexpected Transfer-Encoding ${headers['transfer-encoding']}`);
    const length = Number(headers['content-length'] ?? 0);
    let body = bytes.subarray(end + 4, end + 4 + length);
    if (body.length !== length) throw new Error(`body of ${method} ${path} is cut short`);
    const encoding = headers['content-encoding'];
    if (encoding === 'gzip') body = gunzipSync(body);
    else if (encoding === 'deflate') body = inflateSync(body);
    else if (encoding === 'br') body = brotliDecompressSync(body);
    else if (encoding && encoding !== 'identity') throw new Error(`unexpected Content-Encoding ${encoding}`);
    requests.push({ method, path, headers, head, body });
    at = end + 4 + length;
  }
  return requests;
}

/** Calls `onString(value, path)` and `onInteger(value, path)` (BigInt) for every leaf of a decoded message. */
export function walkDecoded(value, { onString, onInteger, onBytes }, path = '') {
  if (typeof value === 'string') onString(value, path);
  else if (typeof value === 'bigint') onInteger(value, path);
  else if (typeof value === 'number' && Number.isInteger(value) && value >= 0) onInteger(BigInt(value), path);
  else if (value instanceof Uint8Array) onBytes(Buffer.from(value), path);
  else if (Array.isArray(value)) value.forEach((v, i) => walkDecoded(v, { onString, onInteger, onBytes }, `${path}[${i}]`));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walkDecoded(v, { onString, onInteger, onBytes }, `${path}.${k}`);
  }
}
