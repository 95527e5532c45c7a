import { z } from "zod";

/**
 * Zod schema of GET /v1/volumes/:volumeId/workload (services/api/src/workload, docs/workload.md):
 * a volume's vscsiStats histograms over a period. Seek distances in 512-byte sectors (signed),
 * outstanding I/Os in I/Os, interarrival times and latencies in µs, alignment start sectors in
 * 512-byte sectors into the 4 KiB block; shares 0..1.
 */

const Counts = z.array(z.number().nonnegative());

/**
 * One vscsiStats family: its bucket upper bounds (inclusive; one more open bucket above the last)
 * and the merged bucket counts per direction, null where no window reported that direction.
 */
const WorkloadHistogram = z.object({
  bounds: z.array(z.number()),
  all: Counts.nullable(),
  read: Counts.nullable(),
  write: Counts.nullable(),
});

/**
 * Block alignment of the period's commands (docs/workload.md "Block alignment";
 * services/api/src/workload/alignment.ts).
 */
const Alignment = z.object({
  /** Commands by the 512-byte sector of their 4 KiB block they start at: bounds 0..6, bucket k = k × 512 bytes in (0: aligned). */
  start_sector: WorkloadHistogram,
  /** Commands counted. */
  commands: z.number().nonnegative(),
  /** Share of commands that do not start on a 4 KiB boundary. */
  misaligned_share: z.number().min(0).max(1),
  /** Share of the bytes read and written in misaligned commands; null without bytes. */
  misaligned_bytes_share: z.number().min(0).max(1).nullable(),
  /** The tier's extra work: 4 KiB blocks spanned as issued over those spanned if aligned, minus 1; null without block counts. */
  extra_block_share: z.number().nullable(),
  /** Bytes into their 4 KiB block where at least half of the misaligned commands start (3584: a partition at sector 63); null when none dominates. */
  dominant_offset_bytes: z.number().nonnegative().nullable(),
  /** One offset dominates and the extra block share reaches the api's threshold (docs/workload.md "Block alignment"): moving the partition by that offset removes the extra work. */
  realignment_advised: z.boolean(),
});
export type Alignment = z.infer<typeof Alignment>;

/** GET /v1/volumes/:volumeId/workload. */
export const Workload = z.object({
  volume_id: z.string(),
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  /** Rollup resolution read: 10s, 1m, 1h or 1d. */
  resolution: z.string(),
  /** Rollup windows of the period that had histograms. */
  windows: z.number(),
  seek_distance: WorkloadHistogram,
  /** From the closest of the previous 16 commands: `all` only. */
  seek_distance_closest: WorkloadHistogram,
  outstanding: WorkloadHistogram,
  interarrival_us: WorkloadHistogram,
  /** Front-end latency in vscsiStats' latency buckets (µs): only volumes imported from vscsiStats output have counts. */
  latency_us: WorkloadHistogram,
  /** Null without seek distances in the period. */
  randomness: z
    .object({
      /** Commands with a previous one. */
      commands: z.number(),
      /** Share of commands at seek distance 1 (they start where the previous one ended). */
      sequential_share: z.number().min(0).max(1),
      /** Share of commands within (−128, 128] sectors (64 KiB) of where the previous one ended. */
      within_128_sectors_share: z.number().min(0).max(1),
    })
    .nullable(),
  /** Null without alignment counts in the period (vscsiStats output has none). */
  alignment: Alignment.nullable(),
});
export type Workload = z.infer<typeof Workload>;
