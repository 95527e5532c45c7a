import { checkTimestamp, reject } from './validation.js';

/** A fixed64 read as two unsigned 32-bit halves, as an exact bigint. */
export function fixed64(low: number, high: number): bigint {
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}

/** Names a data point in an error (built only when one is thrown). */
export interface PointPlace {
  /** e.g. `resourceMetrics[0].scopeMetrics[0].metrics[2] "tierwise.io.size".dataPoints[4]`. */
  pointAt(): string;
}

/**
 * The intervals of one ResourceMetrics, keyed by their end (a data point's `time_unix_nano`),
 * with the start its points agree on (`start_time_unix_nano`; 0 until a point gives one). Times
 * are fixed64 halves, compared exactly without building a number per point.
 */
export class IntervalStarts {
  private readonly endLow: number[] = [];
  private readonly endHigh: number[] = [];
  private readonly startLow: number[] = [];
  private readonly startHigh: number[] = [];
  private readonly byEnd = new Map<string, number>();
  private last = -1;

  /**
   * Adds one data point's times.
   * @param place names the point in an error.
   * @throws ApiError invalid_body when its end is more than 5 minutes ahead of `nowUnixNano` or
   *   more than 30 days old ({@link checkTimestamp}), or when its non-zero start differs from the
   *   one an earlier point of the same end gave.
   */
  add(endLow: number, endHigh: number, startLow: number, startHigh: number, nowUnixNano: bigint, place: PointPlace): void {
    let e = this.last;
    if (e < 0 || this.endLow[e] !== endLow || this.endHigh[e] !== endHigh) {
      const key = `${endHigh}:${endLow}`;
      e = this.byEnd.get(key) ?? -1;
      if (e < 0) {
        checkTimestamp(fixed64(endLow, endHigh), nowUnixNano, `${place.pointAt()}.time_unix_nano`);
        e = this.endLow.push(endLow) - 1;
        this.endHigh.push(endHigh);
        this.startLow.push(0);
        this.startHigh.push(0);
        this.byEnd.set(key, e);
      }
      this.last = e;
    }
    if (startLow === 0 && startHigh === 0) return;
    const known = this.startLow[e] !== 0 || this.startHigh[e] !== 0;
    if (known && (this.startLow[e] !== startLow || this.startHigh[e] !== startHigh)) {
      const start = fixed64(this.startLow[e], this.startHigh[e]);
      reject(`${place.pointAt()}: data points ending at ${fixed64(endLow, endHigh)} ns disagree on the start (${start} vs ${fixed64(startLow, startHigh)})`);
    }
    this.startLow[e] = startLow;
    this.startHigh[e] = startHigh;
  }

  /**
   * @throws ApiError invalid_body naming `where` when an interval has no start, or one not
   *   before its end.
   */
  checkStarts(where: string): void {
    for (let e = 0; e < this.endLow.length; e++) {
      const start = fixed64(this.startLow[e], this.startHigh[e]);
      const end = fixed64(this.endLow[e], this.endHigh[e]);
      if (start === 0n || start >= end) {
        reject(`${where}: interval ending at ${end} ns has no valid start_time_unix_nano (${start})`);
      }
    }
  }
}
