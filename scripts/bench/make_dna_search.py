#!/usr/bin/env python3
"""Writes a DNA search workload for benchmarks: TARGETS random records of
1,000 to 10,000 letters (uniform), and READS reads of 150 to 1,000 letters
(uniform), each cut from a random target at a random place, with 2%
substitutions and 0.2% one-letter indels, every other one reverse
complemented (so both strands find hits); fixed seed.

  make_dna_search.py --targets 100000 --reads 10000 --seed 5 --out-targets t.fa --out-reads r.fa
"""
import argparse
import random

COMPLEMENT = str.maketrans("ACGT", "TGCA")


def write(f, name, seq):
    f.write(">" + name + "\n")
    for i in range(0, len(seq), 80):
        f.write(seq[i:i + 80] + "\n")


def mutate(rng, seq):
    out = []
    for c in seq:
        r = rng.random()
        if r < 0.001:
            continue  # deletion
        if r < 0.002:
            out.append(rng.choice("ACGT"))  # insertion
        out.append(rng.choice("ACGT") if rng.random() < 0.02 else c)
    return "".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--targets", type=int, default=100000)
    p.add_argument("--reads", type=int, default=10000)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--out-targets", required=True)
    p.add_argument("--out-reads", required=True)
    a = p.parse_args()
    rng = random.Random(a.seed)
    targets = []
    with open(a.out_targets, "w") as f:
        for k in range(a.targets):
            seq = "".join(rng.choices("ACGT", k=rng.randint(1000, 10000)))
            targets.append(seq)
            write(f, f"t{k}", seq)
    with open(a.out_reads, "w") as f:
        for k in range(a.reads):
            source = rng.randrange(len(targets))
            t = targets[source]
            n = rng.randint(150, min(1000, len(t)))
            start = rng.randrange(len(t) - n + 1)
            read = mutate(rng, t[start:start + n])
            if k % 2:
                read = read.translate(COMPLEMENT)[::-1]
            write(f, f"r{k}_t{source}_{'minus' if k % 2 else 'plus'}", read)


if __name__ == "__main__":
    main()
