package io.tierwise.jobs.workingset.estimate.eviction;

import static io.tierwise.jobs.workingset.estimate.eviction.EntryPool.NONE;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;

/**
 * The block -> node map of one or more {@link EntryPool}s: one row per block held by any of them,
 * one column per pool, each cell that pool's node of the block or {@link EntryPool#NONE}. The
 * caches of one miniature size (one per eviction policy, {@link QueueCache#share}) see the same
 * references in the same order, so one hash lookup finds a block in all of them: the index
 * remembers its last lookup, and the next pool asking for the same block reads its column without
 * hashing. A pool keeps each node's row, so removing or renumbering a node hashes only when its
 * block's row empties. Per row: {@code 4 x columns} bytes of cells and a count, plus the map's
 * {@value EntryPool#MAP_SLOT_BYTES} bytes per table slot. Not thread-safe.
 */
final class BlockIndex {
  private final int columns;
  private RowMap rows = new RowMap(0);
  /** Row {@code r}'s cells at {@code r * columns + column}; a free row's first cell links the free list. */
  private int[] cells = new int[0];
  /** Columns holding each row; 0 for a free row. */
  private byte[] held = new byte[0];
  private int usedRows;
  private int freeRow = NONE;
  private long lastBlock;
  /** The row of {@link #lastBlock} ({@link EntryPool#NONE}: absent); valid while {@link #lastKnown}. */
  private int lastRow;
  private boolean lastKnown;

  /** The block -> row map; a subclass to read its table length. */
  private static final class RowMap extends Long2IntOpenHashMap {
    private static final long serialVersionUID = 1L;

    RowMap(int expected) {
      super(expected);
      defaultReturnValue(NONE);
    }

    int tableSlots() {
      return n + 1;
    }

    @Override
    public RowMap clone() {
      return (RowMap) super.clone();
    }
  }

  /** An empty index of {@code columns} pools (1 to 127). */
  BlockIndex(int columns) {
    if (columns < 1 || columns > Byte.MAX_VALUE) {
      throw new IllegalArgumentException("a block index has 1 to 127 columns, got " + columns);
    }
    this.columns = columns;
  }

  /** A deep copy (the pools copied with it take it in place of this one). */
  BlockIndex copy() {
    BlockIndex c = new BlockIndex(columns);
    c.rows = rows.clone();
    c.cells = cells.clone();
    c.held = held.clone();
    c.usedRows = usedRows;
    c.freeRow = freeRow;
    return c;
  }

  int columns() {
    return columns;
  }

  /** {@code column}'s node of {@code block}, or {@link EntryPool#NONE}. */
  int find(long block, int column) {
    int row = row(block);
    return row == NONE ? NONE : cells[row * columns + column];
  }

  /**
   * Sets {@code column}'s node of {@code block} (absent from that column until now).
   *
   * @return the block's row, for {@link #remove} and {@link #renumber}
   */
  int add(long block, int column, int node) {
    int row = row(block);
    if (row == NONE) {
      row = allocateRow();
      rows.put(block, row);
      lastRow = row;
    }
    cells[row * columns + column] = node;
    held[row]++;
    return row;
  }

  /** Clears {@code column}'s node of {@code block}, which is in {@code row}; the row goes when no column holds it. */
  void remove(int row, int column, long block) {
    cells[row * columns + column] = NONE;
    if (--held[row] > 0) {
      return;
    }
    rows.remove(block);
    cells[row * columns] = freeRow;
    freeRow = row;
    if (lastKnown && lastBlock == block) {
      lastRow = NONE;
    }
  }

  /** Sets {@code column}'s node in {@code row} to {@code node} (a pool renumbered its nodes). */
  void renumber(int row, int column, int node) {
    cells[row * columns + column] = node;
  }

  /** Bytes held: the cells and counts at their allocated length and the map's table. */
  long heldBytes() {
    return (long) held.length * (1 + (long) columns * Integer.BYTES) + (long) rows.tableSlots() * EntryPool.MAP_SLOT_BYTES;
  }

  private int row(long block) {
    if (!lastKnown || lastBlock != block) {
      lastBlock = block;
      lastRow = rows.get(block);
      lastKnown = true;
    }
    return lastRow;
  }

  private int allocateRow() {
    int row;
    if (freeRow != NONE) {
      row = freeRow;
      freeRow = cells[row * columns];
    } else {
      if (usedRows == held.length) {
        int length = Math.max(16, usedRows + (usedRows >> 1));
        held = Arrays.copyOf(held, length);
        cells = Arrays.copyOf(cells, length * columns);
      }
      row = usedRows++;
    }
    Arrays.fill(cells, row * columns, (row + 1) * columns, NONE);
    return row;
  }
}
