#!/usr/bin/python3
"""A FUSE file system that passes one directory through and fails on demand.

The fault tests (nbd_device_faults_test.sh) put a datastore or tier file
here and a loop device over it, so the agent sees the kernel's own errors:
a write, read or flush (fsync) that this file system fails comes back from the
loop device as EIO, or ENOSPC for "enospc" writes.

Usage: faulty_fs.py BACKING_DIR MOUNTPOINT CONTROL_FILE   (runs until unmounted)

CONTROL_FILE holds JSON, read again whenever it changes (write it whole, e.g.
with a rename):
  {"write": "eio" | "enospc" | null, "read": "eio" | null, "flush": "eio" | null,
   "stall_ms": 0}
A missing or empty file means no faults. stall_ms delays every write and flush.
Each failed operation is counted in CONTROL_FILE + ".count" (one line per kind).
"""
import errno
import json
import os
import sys
import threading
import time

import fusepy

ERRNO = {"eio": errno.EIO, "enospc": errno.ENOSPC}


class FaultyPassthrough(fusepy.Operations):
    def __init__(self, root, control):
        self.root = root
        self.control = control
        self.mtime = None
        self.faults = {}
        self.counts = {}
        self.mutex = threading.Lock()

    def _path(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def _fault(self, kind):
        """The errno to fail `kind` with now (0: none), after any stall."""
        with self.mutex:
            try:
                mtime = os.stat(self.control).st_mtime_ns
            except FileNotFoundError:
                mtime = None
            if mtime != self.mtime:
                self.mtime = mtime
                try:
                    with open(self.control) as f:
                        text = f.read().strip()
                    self.faults = json.loads(text) if text else {}
                except (OSError, ValueError):
                    self.faults = {}
            faults = dict(self.faults)
        if kind in ("write", "flush") and faults.get("stall_ms"):
            time.sleep(faults["stall_ms"] / 1000)
        code = ERRNO.get(faults.get(kind) or "", 0)
        if code:
            with self.mutex:
                self.counts[kind] = self.counts.get(kind, 0) + 1
                with open(self.control + ".count", "w") as f:
                    f.writelines(f"{k} {v}\n" for k, v in sorted(self.counts.items()))
        return code

    def getattr(self, path, fh=None):
        st = os.lstat(self._path(path))
        return {k: getattr(st, k) for k in ("st_mode", "st_size", "st_uid", "st_gid", "st_nlink",
                                            "st_atime", "st_mtime", "st_ctime")}

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._path(path))

    def open(self, path, flags):
        return os.open(self._path(path), flags & ~os.O_DIRECT)

    def create(self, path, mode, fi=None):
        return os.open(self._path(path), os.O_WRONLY | os.O_CREAT, mode)

    def truncate(self, path, length, fh=None):
        os.truncate(self._path(path), length)

    def read(self, path, size, offset, fh):
        code = self._fault("read")
        if code:
            raise fusepy.FuseOSError(code)
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        code = self._fault("write")
        if code:
            raise fusepy.FuseOSError(code)
        return os.pwrite(fh, data, offset)

    def fsync(self, path, datasync, fh):
        code = self._fault("flush")
        if code:
            raise fusepy.FuseOSError(code)
        os.fdatasync(fh)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, mountpoint, control = sys.argv[1:]
    fusepy.FUSE(FaultyPassthrough(root, control), mountpoint, foreground=True, direct_io=True,
                allow_other=False, nothreads=False)


if __name__ == "__main__":
    main()
