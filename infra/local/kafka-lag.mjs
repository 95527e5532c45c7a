/**
 * How far the stream jobs are behind: per telemetry topic, the records between the partitions'
 * end and the offsets the jobs' consumer group committed, summed over partitions. Flink commits
 * them when a checkpoint completes (TIERWISE_CHECKPOINT_INTERVAL_SECONDS), and the barrier has
 * passed every operator by then: every record before a committed offset has been processed,
 * though its rows may not be written yet. The group is the newest state version's
 * (`tierwise-stream-jobs.v<N>.metrics` / `.refs`, stream-jobs JobSettings). Read by
 * demo-wait.mjs and bench/fleet.
 *
 * consumerLag(brokers) -> {'telemetry.metrics.v1': records, 'telemetry.refs.v1': records}
 *   a topic whose group has committed nothing yet counts every record
 */
import { Admin } from '@platformatic/kafka';

const TOPICS = { 'telemetry.metrics.v1': 'metrics', 'telemetry.refs.v1': 'refs' };
const LATEST = -1n;

export async function consumerLag(brokers) {
  const admin = new Admin({ clientId: 'tierwise-consumer-lag', bootstrapBrokers: brokers });
  try {
    const groups = [...(await admin.listGroups()).keys()].filter((g) => g.startsWith('tierwise-stream-jobs.v'));
    const version = (g) => Number(/\.v(\d+)\./.exec(g)?.[1] ?? -1);
    const newest = Math.max(...groups.map(version));
    const lag = {};
    for (const [topic, suffix] of Object.entries(TOPICS)) {
      const groupId = groups.find((g) => version(g) === newest && g.endsWith(`.${suffix}`));
      const metadata = await admin.metadata({ topics: [topic] });
      const partitions = [...Array(metadata.topics.get(topic).partitionsCount).keys()];
      const [ends] = await admin.listOffsets({ topics: [{ name: topic, partitions: partitions.map((p) => ({ partitionIndex: p, timestamp: LATEST })) }] });
      const committed = new Map();
      if (groupId) {
        const [group] = await admin.listConsumerGroupOffsets({ groups: [{ groupId, topics: [{ name: topic, partitionIndexes: partitions }] }] });
        for (const p of group.topics.find((t) => t.name === topic)?.partitions ?? []) committed.set(p.partitionIndex, p.committedOffset);
      }
      lag[topic] = ends.partitions.reduce((n, p) => n + Number(p.offset - (committed.get(p.partitionIndex) > 0n ? committed.get(p.partitionIndex) : 0n)), 0);
    }
    return lag;
  } finally {
    await admin.close();
  }
}
