import type { MessageToProduce } from '@platformatic/kafka';

type Message = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

/** Sends one produce request holding `messages`; resolves on acks, rejects when Kafka refuses it. */
export type SendProduce = (messages: Message[]) => Promise<void>;

/** Produce calls in flight at once; the batches that come meanwhile wait and go out together. */
export const MAX_CONCURRENT_PRODUCES = 2;

interface Group {
  messages: Message[];
  bytes: number;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * Group commit of ingest's Kafka produces: each accepted batch's records join the next produce
 * call, which starts at once while fewer than {@link MAX_CONCURRENT_PRODUCES} are in flight, and
 * otherwise when one of them ends, carrying the batches that came meanwhile (at most
 * `maxGroupBytes` of keys and values, so that a partition's record batch stays within the
 * topics' `max.message.bytes`: ingest.constants.ts MAX_BODY_BYTES; a larger batch goes alone). A
 * lightly loaded ingest sends each batch alone at once (no linger); under load one produce
 * request carries many batches, and Kafka's cost and ingest's (a request, its record batches'
 * compression) is per request more than per record. Each batch still resolves only when the
 * produce holding its records is acknowledged (acks=all), and a failed produce rejects the
 * batches it held and those waiting behind it (they would go to the same broker next; their
 * agents retry, and nothing of theirs was sent). Order: a batch's records are handed to the
 * producer after those of every batch added before it.
 */
export class ProduceGroups {
  /** Groups not sent yet, oldest first; only the last one takes more batches. */
  private waiting: Group[] = [];
  private inFlight = 0;

  /**
   * @param send one produce call
   * @param maxGroupBytes the most key and value bytes one produce call carries, unless one batch alone is larger
   */
  constructor(
    private readonly send: SendProduce,
    private readonly maxGroupBytes: number,
  ) {}

  /** Sends `messages` in a produce call soon; resolves when Kafka acknowledged it. */
  add(messages: Message[]): Promise<void> {
    const bytes = messages.reduce((sum, m) => sum + (m.key?.length ?? 0) + (m.value?.length ?? 0), 0);
    return new Promise((resolve, reject) => {
      let group = this.waiting.at(-1);
      if (group === undefined || group.bytes + bytes > this.maxGroupBytes) {
        group = { messages: [], bytes: 0, waiters: [] };
        this.waiting.push(group);
      }
      group.messages.push(...messages);
      group.bytes += bytes;
      group.waiters.push({ resolve, reject });
      this.sendWaiting();
    });
  }

  private sendWaiting(): void {
    while (this.inFlight < MAX_CONCURRENT_PRODUCES && this.waiting.length > 0) {
      const group = this.waiting.shift()!;
      this.inFlight += 1;
      this.send(group.messages).then(
        () => {
          for (const waiter of group.waiters) waiter.resolve();
          this.sent();
        },
        (error: unknown) => {
          const refused = [group, ...this.waiting].flatMap((g) => g.waiters);
          this.waiting = [];
          for (const waiter of refused) waiter.reject(error);
          this.sent();
        },
      );
    }
  }

  private sent(): void {
    this.inFlight -= 1;
    this.sendWaiting();
  }
}
