/** The TS constants match the contract document proto/METRICS.md. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  IO_LENGTH_BINS,
  IO_LENGTH_BOUNDS_BYTES,
  ioLengthBin,
  ALIGNMENT_BOUNDS_SECTORS,
  INTERARRIVAL_BOUNDS_US,
  LATENCY_BOUNDS_US,
  METRIC_SPECS,
  OUTSTANDING_IOS_BOUNDS,
  SEEK_DISTANCE_BOUNDS_SECTORS,
  VSCSI_LATENCY_BOUNDS_US,
  resolveProtoDir,
} from "../src/index";

const metricsMd = readFileSync(path.join(resolveProtoDir(), "METRICS.md"), "utf8");
const numbersAfter = (heading: string): number[] => {
  const start = metricsMd.indexOf(heading);
  assert.ok(start >= 0, `METRICS.md has "${heading}"`);
  const paragraph = metricsMd.slice(start + heading.length).split("\n\n")[0];
  // Drop `>524288`-style labels and "(18 bins)"-style remarks; keep the listed numbers.
  const listed = paragraph.replace(/`[^`]*`|\([^)]*\)/g, "");
  return [...listed.matchAll(/\b\d+\b/g)].map((m) => Number(m[0]));
};

describe("METRICS.md constants", () => {
  it("metric names, kinds and units equal the METRICS.md table", () => {
    const rows = [...metricsMd.matchAll(/^\| `((?:tierwise|system)\.[^`]+)` \| (Sum|Histogram|ExponentialHistogram|Gauge)[^|]*\| `([^`]+)` \|/gm)];
    const kinds: Record<string, string> = { Sum: "sum", Histogram: "histogram", ExponentialHistogram: "exponentialHistogram", Gauge: "gauge" };
    const table = Object.fromEntries(rows.map(([, name, kind, unit]) => [name, { kind: kinds[kind], unit }]));
    assert.equal(rows.length, 37);
    assert.deepEqual(METRIC_SPECS, table);
  });

  it("ioLength bounds equal the vscsiStats bins of METRICS.md", () => {
    assert.deepEqual([...IO_LENGTH_BOUNDS_BYTES], numbersAfter("vscsiStats ioLength bins (bytes, upper bounds, inclusive):"));
    assert.equal(IO_LENGTH_BINS.length, 18);
    assert.deepEqual(IO_LENGTH_BINS.at(-1), { label: ">524288", upperBytes: null });
  });

  it("the vscsiStats families' bounds equal METRICS.md", () => {
    /** The signed numbers of the bullet that starts with `start`, up to its "(N bounds" remark. */
    const bullet = (start: string): number[] => {
      const line = metricsMd.slice(metricsMd.indexOf(start) + start.length).split(/\(\d+ bounds/)[0];
      return [...line.replaceAll("\u2212", "-").matchAll(/-?\b\d+\b/g)].map((m) => Number(m[0]));
    };
    assert.deepEqual([...SEEK_DISTANCE_BOUNDS_SECTORS], bullet("- seek distance (sectors, both families):"));
    assert.deepEqual([...OUTSTANDING_IOS_BOUNDS], bullet("- outstanding I/Os:"));
    assert.deepEqual([...INTERARRIVAL_BOUNDS_US], bullet("- interarrival (µs):"));
    assert.deepEqual([...VSCSI_LATENCY_BOUNDS_US], INTERARRIVAL_BOUNDS_US);
    assert.equal(SEEK_DISTANCE_BOUNDS_SECTORS.length, 33);
    assert.deepEqual([...ALIGNMENT_BOUNDS_SECTORS], bullet("`tierwise.io.alignment` bounds (sectors into the 4 KiB block):"));
  });

  it("latency bounds equal METRICS.md", () => {
    assert.deepEqual([...LATENCY_BOUNDS_US], numbersAfter("Latency bucket bounds (µs, log-linear 1-2-5):"));
  });

  it("bins an I/O by inclusive upper bound", () => {
    const label = (bytes: number) => ioLengthBin(bytes).label;
    assert.equal(label(0), "512");
    assert.equal(label(512), "512");
    assert.equal(label(513), "1024");
    assert.equal(label(4095), "4095");
    assert.equal(label(4096), "4096");
    assert.equal(label(4097), "8191");
    assert.equal(label(524288), "524288");
    assert.equal(label(524289), ">524288");
    assert.throws(() => ioLengthBin(-1), RangeError);
    assert.throws(() => ioLengthBin(1.5), RangeError);
  });
});
