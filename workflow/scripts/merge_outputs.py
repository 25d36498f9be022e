"""merge_outputs.py: the shards' outputs as one run over the whole query
would write them.

  merge_outputs.py --tool T --format F --command "CL" --output OUT PART...
  merge_outputs.py --reports --output OUT REPORT...

Outputs: the shards' in order (each holds a contiguous range of the
queries, and every tool writes a query's results together, in query
order), with one file header, whose command line is the single run's
(CL): gpu-sw's pair header and SAM header (@PG CL), gpu-syntenic's
listing header, a TSV's column line.
Reports (--report JSON): counts, cells and seconds summed, peaks the
largest, what every shard shares kept, GCUPS over the summed compute
time, and the number of shards.
"""
import argparse
import json
import sys

PAIR_RULE = b"#" * 40 + b"\n"


def split_pair(data):
    """gpu-sw's pair format: (header block and the blank line after it, body)."""
    lines = data.splitlines(keepends=True)
    rules = [k for k, line in enumerate(lines) if line == PAIR_RULE]
    if len(rules) < 2:
        return b"", data
    end = rules[1] + 1
    if end < len(lines) and lines[end] == b"\n":
        end += 1
    return b"".join(lines[:end]), b"".join(lines[end:])


def split_listing(data):
    """gpu-syntenic's listing: (the header up to its closing rule, body);
    each pair's block in the body begins with a blank line."""
    lines = data.splitlines(keepends=True)
    rules = [k for k, line in enumerate(lines) if line == PAIR_RULE]
    if len(rules) < 2:
        return b"", data
    return b"".join(lines[: rules[1] + 1]), b"".join(lines[rules[1] + 1 :])


def split_sam(data):
    lines = data.splitlines(keepends=True)
    k = 0
    while k < len(lines) and lines[k].startswith(b"@"):
        k += 1
    return b"".join(lines[:k]), b"".join(lines[k:])


def split_tsv(data):
    if data.startswith(b"#"):
        end = data.find(b"\n") + 1 or len(data)
        return data[:end], data[end:]
    return b"", data


def with_command(header, fmt, command):
    out = []
    for line in header.splitlines(keepends=True):
        if fmt in ("pair", "listing") and line.startswith(b"# Command:  "):
            line = b"# Command:  " + command + b"\n"
        elif fmt == "sam" and line.startswith(b"@PG\t"):
            fields = line.rstrip(b"\n").split(b"\t")
            line = b"\t".join(b"CL:" + command if f.startswith(b"CL:") else f for f in fields) + b"\n"
        out.append(line)
    return b"".join(out)


def merge_outputs(tool, fmt, command, parts):
    splitter = {"pair": split_pair, "listing": split_listing, "sam": split_sam, "tsv": split_tsv}.get(fmt)
    if splitter is None:  # no file header: json lines, paf, blast6, dotbracket, bpseq, ct, pairs
        return b"".join(parts)
    header, bodies = b"", []
    for k, data in enumerate(parts):
        head, body = splitter(data)
        if k == 0:
            header = with_command(head, fmt, command)
        if body:
            bodies.append(body)
    # The pair format's alignments are apart by a blank line, the last one
    # ending the file without it.
    return header + (b"\n" if fmt == "pair" else b"").join(bodies)


# Report fields that every shard shares (the run's setting, the targets)
# and those whose largest value stands for the whole run; every other
# number (counts, cells, seconds) is summed.
SHARED = {"threads", "targets", "target_residues", "query_strands"}
LARGEST = {"peak_memory_bytes", "database_chunks"}


def combine(values, key):
    if all(isinstance(v, dict) for v in values):
        keys = list(dict.fromkeys(k for v in values for k in v))  # every shard's, in order
        return {k: combine([v[k] for v in values if k in v], k) for k in keys}
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if not numbers or key in SHARED:
        return values[0]
    return max(values) if key in LARGEST else sum(values)


def merge_reports(reports):
    merged = combine(reports, "")
    merged["shards"] = len(reports)
    compute = merged.get("seconds", {}).get("compute")
    if "gcups" in merged and compute:
        merged["gcups"] = merged.get("cells", 0) / compute / 1e9
    return merged


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--format")
    ap.add_argument("--command", default="")
    ap.add_argument("--reports", action="store_true")
    ap.add_argument("--output", required=True)
    ap.add_argument("parts", nargs="+")
    a = ap.parse_args()
    if a.reports:
        reports = []
        for path in a.parts:
            with open(path) as f:
                reports.append(json.load(f))
        with open(a.output, "w") as out:
            json.dump(merge_reports(reports), out, indent=2)
            out.write("\n")
        return
    parts = []
    for path in a.parts:
        with open(path, "rb") as f:
            parts.append(f.read())
    data = merge_outputs(a.tool, a.format, a.command.encode(), parts)
    with open(a.output, "wb") as out:
        out.write(data)


if __name__ == "__main__":
    sys.exit(main())
