#!/usr/bin/env python3
"""Writes a random FASTA record, or a mutated copy of one, for benchmarks.

  make_fasta.py random  --alphabet dna|rna|protein --length N --seed S --name ID > out.fa
  make_fasta.py mutate  --input in.fa --rate R --seed S --name ID > out.fa
"""
import argparse
import random

LETTERS = {"dna": "ACGT", "rna": "ACGU", "protein": "ACDEFGHIKLMNPQRSTVWY"}


def read_fasta(path):
    with open(path) as f:
        return "".join(line.strip() for line in f if not line.startswith(">"))


def write(name, seq):
    print(">" + name)
    for i in range(0, len(seq), 80):
        print(seq[i:i + 80])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["random", "mutate"])
    p.add_argument("--alphabet", default="dna", choices=LETTERS)
    p.add_argument("--length", type=int, default=1000)
    p.add_argument("--input")
    p.add_argument("--rate", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--name", default="seq")
    a = p.parse_args()
    rng = random.Random(a.seed)
    letters = LETTERS[a.alphabet]
    if a.kind == "random":
        write(a.name, "".join(rng.choice(letters) for _ in range(a.length)))
        return
    src = read_fasta(a.input)
    letters = "".join(sorted(set(src))) or letters
    out = []
    for c in src:  # substitutions, deletions and insertions in equal parts
        r = rng.random()
        if r < a.rate / 3:
            continue
        if r < 2 * a.rate / 3:
            out.append(rng.choice(letters))
        elif r < a.rate:
            out.append(c)
            out.append(rng.choice(letters))
        else:
            out.append(c)
    write(a.name, "".join(out))


if __name__ == "__main__":
    main()
