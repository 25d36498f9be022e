"""split_query.py QUERY SHARDS OUT_PREFIX: QUERY's records into SHARDS
files OUT_PREFIX0 .. (contiguous, about equal residues, bytes as read),
as shards.divide plans them."""
import sys

import shards


def main():
    query, count, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    recs = shards.records(query)
    ranges = shards.divide([n for _, n in recs], count)
    if len(ranges) != count:
        sys.exit(f"split_query: {query} has {len(recs)} records, not enough for {count} shards")
    for k, (start, end) in enumerate(ranges):
        with open(f"{prefix}{k}", "wb") as out:
            out.write(b"".join(r for r, _ in recs[start:end]))


if __name__ == "__main__":
    main()
