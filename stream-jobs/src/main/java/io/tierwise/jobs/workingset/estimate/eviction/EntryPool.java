package io.tierwise.jobs.workingset.estimate.eviction;

import java.util.Arrays;

/**
 * The entries of one simulated cache: every resident and every ghost block as a node in one pool,
 * each node in exactly one of a fixed number of queues (doubly linked, newest at the front, oldest
 * at the back), and a column of a {@link BlockIndex} from block to node: its own, or one shared
 * with the other policies' caches of a miniature size ({@link #join}). The Java counterpart of the
 * engine's {@code SlotLists}, {@code GhostList} and {@code BlockMap} (edge-agent/src/cache/eviction/):
 * a block is never resident and a ghost at once (a miss takes the block out of its ghost queue
 * before it is admitted), so one column serves both.
 *
 * <p>Per node: the block (8 bytes), its index row (4), links towards the front and back (4 + 4),
 * its queue (1) and a byte for the policy (S3-FIFO's counter, SIEVE's visited bit): 22 bytes in
 * parallel arrays, plus its share of the index. Freed nodes are chained through
 * their back links and reused; the arrays grow by half when full, up to the owner's bound on its
 * entries ({@link #limit}), and never per access; {@link #compact} reallocates them for the
 * entries held (after a shrink). Every
 * operation is O(1) (expected, for the index's map).
 */
final class EntryPool {
  /** No node: an empty queue's front or back, the end of a queue, an absent block. */
  static final int NONE = -1;
  /** Bytes per node in the pool's arrays: block, two links, queue, policy byte. */
  static final int NODE_BYTES = Long.BYTES + 3 * Integer.BYTES + 2;
  /** Bytes per slot of a {@link BlockIndex}'s map table: a block and a row. */
  static final int MAP_SLOT_BYTES = Long.BYTES + Integer.BYTES;

  private static final int FIRST_NODES = 16;
  private static final byte FREE = -1;

  private BlockIndex index;
  /** This pool's column of {@link #index}. */
  private int column;
  /** Entries held (resident and ghost). */
  private int entries;
  private long[] blocks;
  /** Each node's row in {@link #index}. */
  private int[] rows;
  /** Towards the front (newer). */
  private int[] newer;
  /** Towards the back (older); the free list's link for free nodes. */
  private int[] older;
  private byte[] queues;
  private byte[] bits;
  /** Nodes 0..used-1 have been handed out at least once. */
  private int used;
  private int free = NONE;
  private int[] newest;
  private int[] oldest;
  private int[] sizes;
  /** The most entries the owner ever holds at once: the arrays grow no further than this. */
  private int limit = Integer.MAX_VALUE;

  /** An empty pool of {@code queueCount} queues (at most 127). */
  EntryPool(int queueCount) {
    index = new BlockIndex(1);
    blocks = new long[0];
    rows = new int[0];
    newer = new int[0];
    older = new int[0];
    queues = new byte[0];
    bits = new byte[0];
    newest = new int[queueCount];
    oldest = new int[queueCount];
    sizes = new int[queueCount];
    Arrays.fill(newest, NONE);
    Arrays.fill(oldest, NONE);
  }

  /** A deep copy with an index of its own. */
  EntryPool copy() {
    if (index.columns() == 1) {
      return copy(index.copy());
    }
    EntryPool c = copy(new BlockIndex(1));
    c.join(c.index, 0);
    return c;
  }

  /** A deep copy in the same column of {@code indexCopy}, a copy of this pool's index. */
  EntryPool copy(BlockIndex indexCopy) {
    EntryPool c = new EntryPool(sizes.length);
    c.index = indexCopy;
    c.column = column;
    c.entries = entries;
    c.blocks = blocks.clone();
    c.rows = rows.clone();
    c.newer = newer.clone();
    c.older = older.clone();
    c.queues = queues.clone();
    c.bits = bits.clone();
    c.used = used;
    c.free = free;
    c.newest = newest.clone();
    c.oldest = oldest.clone();
    c.sizes = sizes.clone();
    c.limit = limit;
    return c;
  }

  /** The index this pool is a column of. */
  BlockIndex index() {
    return index;
  }

  /** Makes this pool column {@code column} of {@code shared}, adding every entry to it. */
  void join(BlockIndex shared, int column) {
    this.index = shared;
    this.column = column;
    for (int queue = 0; queue < sizes.length; queue++) {
      for (int node = oldest[queue]; node != NONE; node = newer[node]) {
        rows[node] = shared.add(blocks[node], column, node);
      }
    }
  }

  /**
   * Sets the most entries the owner holds at once (its capacity plus its ghost bounds): the arrays
   * then grow no further than that, unless more entries are added.
   */
  void limit(int entries) {
    limit = Math.max(1, entries);
  }

  /**
   * Whether the arrays hold more than twice the owner's bound on its entries (after a shrink), so
   * that {@link #compact} would return memory.
   */
  boolean oversized() {
    return blocks.length > 2L * Math.max(limit, FIRST_NODES);
  }

  /**
   * Renumbers the entries 0..n-1, queue by queue and oldest first, into arrays sized for them (and
   * an own index into a table sized for them; a shared index is rebuilt by its owner,
   * {@link QueueCache#share}); order, queues and policy bytes are kept.
   *
   * @return each old node's new number ({@link #NONE} for free nodes)
   */
  int[] compact() {
    int n = entries;
    int[] renumbered = new int[used];
    Arrays.fill(renumbered, NONE);
    long[] b = new long[n];
    int[] r = new int[n];
    int[] nw = new int[n];
    int[] od = new int[n];
    byte[] q = new byte[n];
    byte[] bt = new byte[n];
    int next = 0;
    for (int queue = 0; queue < sizes.length; queue++) {
      int previous = NONE;
      for (int node = oldest[queue]; node != NONE; node = newer[node]) {
        int i = next++;
        renumbered[node] = i;
        b[i] = blocks[node];
        r[i] = rows[node];
        index.renumber(r[i], column, i);
        q[i] = (byte) queue;
        bt[i] = bits[node];
        od[i] = previous;
        nw[i] = NONE;
        if (previous != NONE) {
          nw[previous] = i;
        } else {
          oldest[queue] = i;
        }
        previous = i;
      }
      newest[queue] = previous;
    }
    blocks = b;
    rows = r;
    newer = nw;
    older = od;
    queues = q;
    bits = bt;
    used = n;
    free = NONE;
    if (index.columns() == 1) {
      join(new BlockIndex(1), 0);
    }
    return renumbered;
  }

  /** The node of {@code block}, or {@link #NONE}. */
  int find(long block) {
    return index.find(block, column);
  }

  int queue(int node) {
    return queues[node];
  }

  long block(int node) {
    return blocks[node];
  }

  int bits(int node) {
    return bits[node];
  }

  void setBits(int node, int value) {
    bits[node] = (byte) value;
  }

  /** Entries in {@code queue}. */
  int size(int queue) {
    return sizes[queue];
  }

  /** The number of queues. */
  int queueCount() {
    return sizes.length;
  }

  /** Entries in all queues. */
  int entries() {
    return entries;
  }

  /** The newest node of {@code queue}, or {@link #NONE}. */
  int newest(int queue) {
    return newest[queue];
  }

  /** The oldest node of {@code queue}, or {@link #NONE}. */
  int oldest(int queue) {
    return oldest[queue];
  }

  /** The node next to {@code node} towards its queue's front, or {@link #NONE}. */
  int newer(int node) {
    return newer[node];
  }

  /**
   * Adds {@code block}, which must be absent from every queue, as the newest entry of {@code queue}
   * with policy byte 0.
   *
   * @return its node
   */
  int add(int queue, long block) {
    int node = allocate();
    blocks[node] = block;
    bits[node] = 0;
    linkFront(node, queue);
    rows[node] = index.add(block, column, node);
    entries++;
    return node;
  }

  /** Moves {@code node} to the front of {@code queue} (its own or another). */
  void moveToFront(int node, int queue) {
    unlink(node);
    linkFront(node, queue);
  }

  /** Removes {@code node} and its block from the pool; the node is reused later. */
  void delete(int node) {
    unlink(node);
    index.remove(rows[node], column, blocks[node]);
    entries--;
    queues[node] = FREE;
    older[node] = free;
    free = node;
  }

  /**
   * Bytes held: the pool's arrays at their allocated length ({@link #NODE_BYTES} per node) and its
   * share of the index (a shared index's bytes split over its columns), without the JVM's object
   * headers.
   */
  long heldBytes() {
    return (long) blocks.length * NODE_BYTES + index.heldBytes() / index.columns()
        + 3L * sizes.length * Integer.BYTES;
  }

  private int allocate() {
    if (free != NONE) {
      int node = free;
      free = older[node];
      return node;
    }
    if (used == blocks.length) {
      int length = (int) Math.min(Math.max(FIRST_NODES, blocks.length + (blocks.length >> 1L)),
          Math.max(limit, used + 1L));
      blocks = Arrays.copyOf(blocks, length);
      rows = Arrays.copyOf(rows, length);
      newer = Arrays.copyOf(newer, length);
      older = Arrays.copyOf(older, length);
      queues = Arrays.copyOf(queues, length);
      bits = Arrays.copyOf(bits, length);
    }
    return used++;
  }

  private void linkFront(int node, int queue) {
    int head = newest[queue];
    queues[node] = (byte) queue;
    newer[node] = NONE;
    older[node] = head;
    if (head != NONE) {
      newer[head] = node;
    } else {
      oldest[queue] = node;
    }
    newest[queue] = node;
    sizes[queue]++;
  }

  private void unlink(int node) {
    int queue = queues[node];
    int n = newer[node];
    int o = older[node];
    if (n != NONE) {
      older[n] = o;
    } else {
      newest[queue] = o;
    }
    if (o != NONE) {
      newer[o] = n;
    } else {
      oldest[queue] = n;
    }
    sizes[queue]--;
  }
}
