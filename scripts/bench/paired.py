#!/usr/bin/env python3
"""Runs a floor and a subject one after the other, RUNS times, and prints the median of the subject's ratios to the
floor run just before it, in CPU seconds (user + system) and in wall seconds; then each one's best CPU seconds and
peak resident memory (KB). On a shared machine whose speed drifts over minutes, a ratio of two runs made seconds
apart holds where the best of each, taken minutes apart, does not.

    paired.py RUNS FLOOR SUBJECT [BEFORE]

FLOOR, SUBJECT and BEFORE are commands, split as a shell splits words (no pipes or redirections); BEFORE (optional)
runs before each subject run, outside the timing (to put back a file the subject updates). Output, one line:
    CPU_RATIO WALL_RATIO FLOOR_CPU SUBJECT_CPU FLOOR_RSS SUBJECT_RSS
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(command):
    """Wall seconds, CPU seconds and peak RSS (KB) of one run of a command, its output discarded."""
    arguments = shlex.split(command)
    start = time.perf_counter()
    child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write(errors.decode("utf-8", "replace"))
        sys.exit("failed (%d): %s" % (code, command))
    # ru_maxrss is in kilobytes on Linux and in bytes on macOS.
    rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
    return wall, usage.ru_utime + usage.ru_stime, rss


def main():
    runs, floor, subject = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    before = sys.argv[4] if len(sys.argv) > 4 else None
    cpu_ratios, wall_ratios, floors, subjects = [], [], [], []
    for _ in range(runs):
        floor_run = run(floor)
        if before:
            subprocess.run(shlex.split(before), check=True)
        subject_run = run(subject)
        cpu_ratios.append(subject_run[1] / floor_run[1])
        wall_ratios.append(subject_run[0] / floor_run[0])
        floors.append(floor_run)
        subjects.append(subject_run)
    print("%.4f %.4f %.4f %.4f %d %d" % (
        statistics.median(cpu_ratios), statistics.median(wall_ratios),
        min(r[1] for r in floors), min(r[1] for r in subjects),
        max(r[2] for r in floors), max(r[2] for r in subjects)))


if __name__ == "__main__":
    main()
