package io.tierwise.jobs.metrics;

/**
 * A row of volume_block_sizes: one volume's front-end I/Os and bytes in one direction and
 * vscsiStats ioLength bin, over every interval received (a Flink POJO).
 */
public class BlockSizeRow {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** "read" or "write". */
  public String direction;
  /** Bin label, "512" .. "524288" or ">524288". */
  public String binLabel;
  /** Inclusive upper bound of the bin in bytes; null for the open last bin. */
  public Long binUpperBytes;
  /** I/Os. */
  public long ops;
  /** Bytes. */
  public long bytes;

  /** For Flink. */
  public BlockSizeRow() {}
}
