#!/usr/bin/env python3
"""Writes a random FASTA record, or a mutated copy of one, for benchmarks.

  make_fasta.py random  --alphabet dna|rna|protein --length N --seed S --name ID > out.fa
  make_fasta.py mutate  --input in.fa --rate R --seed S --name ID > out.fa
      (R: substitutions, which may draw the same letter, one-letter
      deletions and one-letter insertions in equal parts; with --indel-rate
      I, R is the rate of substitutions, each to another letter, and I the
      indels', deletions and insertions in equal parts)
  make_fasta.py mutate  --input in.fa --rate R --blocks K --block-length L ... > out.fa
      (also replaces K stretches of about L letters, evenly spaced, with
      unrelated ones of L/2 to 3L/2 letters: the difference blocks of a
      syntenic pair)
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
    p.add_argument("--indel-rate", type=float)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--name", default="seq")
    p.add_argument("--blocks", type=int, default=0)
    p.add_argument("--block-length", type=int, default=1000)
    a = p.parse_args()
    rng = random.Random(a.seed)
    letters = LETTERS[a.alphabet]
    if a.kind == "random":
        write(a.name, "".join(rng.choice(letters) for _ in range(a.length)))
        return
    src = read_fasta(a.input)
    letters = "".join(sorted(set(src))) or letters
    # The rates of deletions, substitutions and insertions.
    if a.indel_rate is None:
        dels, subs, ins = a.rate / 3, a.rate / 3, a.rate / 3
        substitute = lambda c: rng.choice(letters)
    else:
        dels, subs, ins = a.indel_rate / 2, a.rate, a.indel_rate / 2
        substitute = lambda c: rng.choice(letters.replace(c, "") or letters)
    out = []
    for c in src:
        r = rng.random()
        if r < dels:
            continue
        if r < dels + subs:
            out.append(substitute(c))
        elif r < dels + subs + ins:
            out.append(c)
            out.append(rng.choice(letters))
        else:
            out.append(c)
    out = "".join(out)
    for k in range(a.blocks, 0, -1):  # from the end, so that earlier positions stay put
        at = len(out) * k // (a.blocks + 1)
        new = "".join(rng.choice(letters) for _ in range(rng.randint(a.block_length // 2, 3 * a.block_length // 2)))
        out = out[:at] + new + out[at + a.block_length:]
    write(a.name, out)


if __name__ == "__main__":
    main()
