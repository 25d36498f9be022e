"""A query file's records, and their division into contiguous shards.

FASTA (records from '>' lines), FASTQ (four lines a record) or plain
lines (one sequence each, as gpu-fold reads them), plain or gzip. Each
record keeps its bytes exactly, so a shard is read as the whole file
would be.
"""
import gzip


def open_bytes(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    return gzip.open(path, "rb") if magic == b"\x1f\x8b" else open(path, "rb")


def records(path):
    """[(record bytes, residues)] in file order."""
    with open_bytes(path) as f:
        lines = f.read().splitlines(keepends=True)
    first = next((l for l in lines if l.strip()), b"")
    out = []
    if first.startswith(b">"):
        for line in lines:
            if line.startswith(b">") or not out:
                out.append([line, 0])
            else:
                out[-1][0] += line
                out[-1][1] += len(line.strip())
    elif first.startswith(b"@"):
        for k in range(0, len(lines), 4):
            block = lines[k:k + 4]
            out.append([b"".join(block), len(block[1].strip()) if len(block) > 1 else 0])
    else:
        out = [[line, len(line.strip())] for line in lines if line.strip()]
    return [(r, n) for r, n in out]


def divide(sizes, shards):
    """Contiguous [start, end) ranges of about equal residues, each one
    record at least; min(shards, len(sizes)) of them (one if none)."""
    count = max(1, min(shards, len(sizes)))
    total = sum(sizes)
    bounds, at, seen = [0], 0, 0
    for k in range(1, count):
        goal = total * k / count
        # Leave at least one record for each shard still to come.
        while at < len(sizes) - (count - k) and (at < bounds[-1] + 1 or seen + sizes[at] / 2 <= goal):
            seen += sizes[at]
            at += 1
        bounds.append(at)
    bounds.append(len(sizes))
    return list(zip(bounds[:-1], bounds[1:]))
