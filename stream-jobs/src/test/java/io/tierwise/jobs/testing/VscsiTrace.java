package io.tierwise.jobs.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-side reader of VMware vscsi v1 traces (32-byte little-endian records: sn, len (bytes),
 * nSG, cmd (0x28 read, 0x2A write), ver, lbn (512-byte sectors), ts (microseconds)), as
 * documented in /work/shared/traces/README.md, expanded to 4 KiB block references.
 */
public final class VscsiTrace {
  /** One 4 KiB block touched by one I/O. */
  public record BlockRef(long block, boolean write, long timeMicros) {}

  private VscsiTrace() {}

  /**
   * Every 4 KiB block touched by every I/O of the trace, in trace order: an I/O of {@code len}
   * bytes at sector {@code lbn} touches blocks {@code floor(lbn*512/4096)} to
   * {@code floor((lbn*512+len-1)/4096)}.
   */
  public static List<BlockRef> blockReferences(Path trace) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(trace)).order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() % 32 != 0) {
      throw new IOException(trace + ": size " + b.remaining() + " is not a multiple of 32 bytes");
    }
    List<BlockRef> refs = new ArrayList<>();
    while (b.hasRemaining()) {
      b.getInt();
      long len = Integer.toUnsignedLong(b.getInt());
      b.getInt();
      int cmd = Short.toUnsignedInt(b.getShort());
      int ver = Short.toUnsignedInt(b.getShort());
      long lbn = b.getLong();
      long ts = b.getLong();
      if (ver >> 8 != 1) {
        throw new IOException(trace + ": record version " + (ver >> 8) + " is not 1");
      }
      if (cmd != 0x28 && cmd != 0x2A) {
        continue;
      }
      long offset = lbn * 512;
      for (long block = offset / 4096; block <= (offset + len - 1) / 4096; block++) {
        refs.add(new BlockRef(block, cmd == 0x2A, ts));
      }
    }
    return refs;
  }
}
