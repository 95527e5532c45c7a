package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * ARC (Megiddo and Modha, "ARC: A Self-Tuning, Low Overhead Replacement Cache", FAST 2003, Figure
 * 4). Mirrors edge-agent/src/cache/eviction/arc_policy.cpp.
 *
 * <p>{@code c} = the capacity. Resident lists T1 (seen once recently) and T2 (seen at least twice),
 * ghost lists B1 and B2 of at most {@code c} ids each, and the target {@code p} for |T1|, a real
 * number in [0, c] starting at 0 (as libCacheSim).
 *
 * <ul>
 *   <li>hit: the block moves to T2's front (case I);
 *   <li>miss in B1: {@code p = min(c, p + max(|B2| / |B1|, 1))} (case II); miss in B2:
 *       {@code p = max(0, p - max(|B1| / |B2|, 1))} (case III), the sizes taken before the ghost
 *       entry leaves; both enter T2;
 *   <li>other miss (case IV): when |T1| + |B1| &ge; c, B1's oldest entry is dropped if |T1| &lt; c,
 *       else the victim is T1's oldest block without a ghost entry; otherwise, when
 *       |T1| + |T2| + |B1| + |B2| &ge; 2c, B2's oldest entry is dropped; the block enters T1;
 *   <li>REPLACE, when full: T1's oldest block into B1 when |T1| &ge; 1 and (|T1| &gt; p, or
 *       |T1| = p on a B2 miss), or when T2 is empty; else T2's oldest block into B2.
 * </ul>
 *
 * <p>A resize keeps p, bounded by the new c.
 */
final class ArcCache extends QueueCache {
  static final int T1 = 0;
  static final int T2 = 1;
  static final int B1 = 2;
  static final int B2 = 3;

  private static final int NEW = 0;
  private static final int IN_B1 = 1;
  private static final int IN_B2 = 2;

  private double c;
  private double p;
  private int miss = NEW;
  private boolean evictT1WithoutGhost;

  ArcCache(int capacityBlocks) {
    super(EvictionPolicy.ARC, capacityBlocks, 2, 2);
    sizeQueues();
  }

  @Override
  void applyCapacity() {
    c = capacity;
    p = Math.min(p, c);
  }

  @Override
  int ghostCapacity(int queue) {
    return capacity;
  }

  /** The directory's bound, 2c (Figure 4: |T1| + |T2| + |B1| + |B2| <= 2c). */
  @Override
  long maxEntries() {
    return 2L * capacity;
  }

  @Override
  void clearMissState() {
    miss = NEW;
    evictT1WithoutGhost = false;
  }

  @Override
  void onHit(int node) {
    pool.moveToFront(node, T2);
  }

  @Override
  void onMiss(int ghost) {
    evictT1WithoutGhost = false;
    double b1 = pool.size(B1);
    double b2 = pool.size(B2);
    if (ghost != NONE && pool.queue(ghost) == B1) {
      pool.delete(ghost);
      miss = IN_B1;
      p = Math.min(c, p + Math.max(b2 / b1, 1.0));
      return;
    }
    if (ghost != NONE && pool.queue(ghost) == B2) {
      pool.delete(ghost);
      miss = IN_B2;
      p = Math.max(0.0, p - Math.max(b1 / b2, 1.0));
      return;
    }
    miss = NEW;
    double t1 = pool.size(T1);
    double t2 = pool.size(T2);
    if (t1 + b1 >= c) {
      if (t1 < c) {
        dropOldest(B1);
      } else {
        evictT1WithoutGhost = true;
      }
    } else if (t1 + t2 + b1 + b2 >= 2 * c) {
      dropOldest(B2);
    }
  }

  @Override
  void evict() {
    int t1 = pool.size(T1);
    int t2 = pool.size(T2);
    if (t1 + t2 == 0) {
      return;
    }
    if (evictT1WithoutGhost && t1 > 0) {
      pool.delete(pool.oldest(T1));
      return;
    }
    boolean fromT1 = t1 >= 1 && ((double) t1 > p || (miss == IN_B2 && t1 == p));
    if (fromT1 || t2 == 0) {
      retire(pool.oldest(T1), B1);
    } else {
      retire(pool.oldest(T2), B2);
    }
  }

  @Override
  void onInsert(long block) {
    pool.add(miss == NEW ? T1 : T2, block);
    miss = NEW;
  }

  @Override
  void writeScalars(DataOutputView out) throws IOException {
    out.writeDouble(p);
  }

  @Override
  int scalarBytes() {
    return Double.BYTES;
  }

  @Override
  void readScalars(DataInputView in) throws IOException {
    double target = in.readDouble();
    if (!(target >= 0 && target <= c)) {
      throw new IOException("inconsistent arc state: p = " + target + " outside [0, " + c + "]");
    }
    p = target;
  }

  /** The target size of T1. */
  double targetT1() {
    return p;
  }
}
