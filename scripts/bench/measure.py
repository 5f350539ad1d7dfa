#!/usr/bin/env python3
"""Runs a command once with its output discarded and prints its wall seconds; writes its peak resident memory (KB)
to WORK/rss and its CPU seconds (user + system) to WORK/cpu, both from the kernel's accounting of the child, to the
microsecond. (`time -f %U` prints hundredths: a 60 ms floor would be off by up to a sixth.) The command's standard
error goes to WORK/stderr; a failing command exits with its status.

    measure.py WORK COMMAND [ARGUMENT ...]
"""
import os
import subprocess
import sys
import time


def main():
    work, command = sys.argv[1], sys.argv[2:]
    with open(os.path.join(work, "stderr"), "wb") as errors:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        return code if code > 0 else 1
    # ru_maxrss is in kilobytes on Linux and in bytes on macOS.
    rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
    with open(os.path.join(work, "rss"), "w") as out:
        out.write("%d\n" % rss)
    with open(os.path.join(work, "cpu"), "w") as out:
        out.write("%.6f\n" % (usage.ru_utime + usage.ru_stime))
    print("%.6f" % wall)
    return 0


if __name__ == "__main__":
    sys.exit(main())
