import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_PRODUCES, ProduceGroups } from './produce-groups.js';

type Message = Parameters<ProduceGroups['add']>[0][number];

/** A produce call the test answers by hand. */
interface Call {
  messages: Message[];
  ack: () => void;
  fail: (error: Error) => void;
}

function scriptedKafka(maxGroupBytes = 1 << 20): { calls: Call[]; groups: ProduceGroups } {
  const calls: Call[] = [];
  const groups = new ProduceGroups(
    (messages) =>
      new Promise<void>((resolve, reject) => {
        calls.push({ messages, ack: resolve, fail: reject });
      }),
    maxGroupBytes,
  );
  return { calls, groups };
}

function message(n: number): Message {
  return { topic: 't', key: Buffer.from(`k${n}`), value: Buffer.from(`v${n}`) };
}

const keys = (call: Call) => call.messages.map((m) => m.key?.toString());
const settled = (promise: Promise<void>) => {
  const state = { done: false, error: undefined as unknown };
  promise.then(
    () => (state.done = true),
    (error: unknown) => ((state.done = true), (state.error = error)),
  );
  return state;
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ProduceGroups', () => {
  it('sends a batch at once while fewer produces are in flight than the bound', async () => {
    const { calls, groups } = scriptedKafka();
    const first = settled(groups.add([message(1)]));
    expect(calls).toHaveLength(1);
    calls[0].ack();
    await tick();
    expect(first).toMatchObject({ done: true, error: undefined });
  });

  it('puts the batches that come while the bound is in flight into one produce, acknowledged only with it', async () => {
    const { calls, groups } = scriptedKafka();
    for (let n = 0; n < MAX_CONCURRENT_PRODUCES; n += 1) void groups.add([message(n)]);
    const later = [10, 11, 12].map((n) => settled(groups.add([message(n), message(n + 100)])));
    expect(calls).toHaveLength(MAX_CONCURRENT_PRODUCES);
    calls[0].ack();
    await tick();
    expect(calls).toHaveLength(MAX_CONCURRENT_PRODUCES + 1);
    expect(keys(calls.at(-1)!)).toEqual(['k10', 'k110', 'k11', 'k111', 'k12', 'k112']);
    expect(later.some((s) => s.done)).toBe(false);
    calls.at(-1)!.ack();
    await tick();
    expect(later.every((s) => s.done && s.error === undefined)).toBe(true);
  });

  it('starts another produce where a group would pass its byte bound', async () => {
    // Each message is 6 bytes of key and value ("k10", "v10"); a bound of 14 takes two batches of one.
    const { calls, groups } = scriptedKafka(14);
    for (let n = 0; n < MAX_CONCURRENT_PRODUCES; n += 1) void groups.add([message(n)]);
    for (const n of [10, 11, 12]) void groups.add([message(n)]);
    calls[0].ack();
    calls[1].ack();
    await tick();
    expect(calls.slice(MAX_CONCURRENT_PRODUCES).map(keys)).toEqual([['k10', 'k11'], ['k12']]);
  });

  it('refuses the batches of a failed produce and those waiting behind it, then sends the next ones again', async () => {
    const { calls, groups } = scriptedKafka();
    const inFlight = Array.from({ length: MAX_CONCURRENT_PRODUCES }, (_, n) => settled(groups.add([message(n)])));
    const waiting = settled(groups.add([message(9)]));
    calls[0].fail(new Error('broker gone'));
    await tick();
    expect(inFlight[0].error).toEqual(new Error('broker gone'));
    expect(waiting.error).toEqual(new Error('broker gone'));
    expect(calls).toHaveLength(MAX_CONCURRENT_PRODUCES);
    const next = settled(groups.add([message(20)]));
    expect(calls).toHaveLength(MAX_CONCURRENT_PRODUCES + 1);
    calls.at(-1)!.ack();
    await tick();
    expect(next).toMatchObject({ done: true, error: undefined });
  });
});
