#!/usr/bin/env python3
"""Runs `litevision detect --jsonl` over a work-item list with Apache Spark (RDD.pipe).

Each partition of the list is piped through one long-lived `litevision` process (models are
loaded once per partition); the records come back one line per item, in input order.

    spark-submit Scripts/spark-detect.py --binary /opt/litevision/bin/litevision \
        --items hdfs:///photos/items.txt --output hdfs:///photos/detections \
        -- --models /opt/litevision/Models --multiple --classify

    python3 Scripts/spark-detect.py --master 'local[2]' --binary .build/release/litevision \
        --items items.txt --collect records.jsonl --partitions 4 -- --models Models

`--output` writes Spark's text output (part files) to any Spark-readable location;
`--collect` brings every record to the driver and writes them, in input order, to a local file.
Arguments after `--` go to `litevision detect --jsonl`. The binary and the models must be at
the same path on every executor (a container image, or shipped with `--files`/`--archives`).
A `litevision` exit code other than 0 fails the task (`checkCode=True`), so Spark retries it:
exit 75 is transient; exit 64 (bad options, missing model) fails every attempt.
"""
import argparse
import shlex
import sys

from pyspark import SparkConf, SparkContext


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the litevision executable (same path on every executor)")
    parser.add_argument("--items", required=True, help="work-item list: a path or {\"id\", \"path\"} per line")
    parser.add_argument("--partitions", type=int, default=None, help="number of partitions (default: Spark's)")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--output", help="directory for Spark's text output (one part file per partition)")
    target.add_argument("--collect", help="local file receiving every record, in input order")
    parser.add_argument("detect_arguments", nargs=argparse.REMAINDER, help="-- then arguments of `litevision detect --jsonl`")
    args = parser.parse_args()
    extra = args.detect_arguments[1:] if args.detect_arguments[:1] == ["--"] else args.detect_arguments

    conf = SparkConf().setAppName("litevision-detect")
    if args.master:
        conf = conf.setMaster(args.master)
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")
    try:
        # Blank lines are not items: drop them so every piped line yields exactly one record.
        items = sc.textFile(args.items, minPartitions=args.partitions or sc.defaultMinPartitions)
        items = items.filter(lambda line: line.strip() != "")
        command = " ".join(shlex.quote(part) for part in [args.binary, "detect", "--jsonl", *extra])
        records = items.pipe(command, checkCode=True)
        if args.output:
            records.saveAsTextFile(args.output)
        else:
            with open(args.collect, "w", encoding="utf-8") as out:
                for record in records.collect():
                    out.write(record + "\n")
    finally:
        sc.stop()


if __name__ == "__main__":
    sys.exit(main())
