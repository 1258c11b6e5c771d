"""What the result cache costs on disk and in time: every file of a cache folder (e.g. the one a cold
build fills) re-written uncompressed (``np.savez``, the cache's format before session 12), at deflate
level 1 (the cache's format now, ``privbandits.cache.store``) and at level 6 (``np.savez_compressed``),
and read back.

    python benchmarks/bench_cache.py <cache folder> [--sample N]

The folder's files are read once into memory; each format writes them to a temporary folder on the same
disk and reads them back. Times are wall clock, summed over files (one thread).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import numpy as np

from privbandits import cache

from _timing import Stopwatch


def formats():
    """Name -> writer(path, arrays) of the three formats compared."""
    return {
        "np.savez (uncompressed)": lambda path, arrays: np.savez(path, **arrays),
        "deflate level 1 (cache.store)": cache._write_npz,
        "np.savez_compressed (level 6)": lambda path, arrays: np.savez_compressed(path, **arrays),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--sample", type=int, default=0, help="measure N files drawn at random (0: all)")
    args = parser.parse_args()
    files = sorted(args.folder.rglob("*.npz"))
    if args.sample:
        files = random.Random(0).sample(files, min(args.sample, len(files)))
    contents = []
    for path in files:
        with np.load(path, allow_pickle=False) as data:
            contents.append({name: data[name] for name in data.files})
    raw = sum(a.nbytes for arrays in contents for a in arrays.values())
    print(f"{len(files)} files, {raw / 1e6:,.0f} MB of arrays")
    print("| format | on disk | write | read |\n| --- | --- | --- | --- |")
    for name, write in formats().items():
        with tempfile.TemporaryDirectory(dir=args.folder.parent) as tmp:
            written, clock = [], Stopwatch()
            for i, arrays in enumerate(contents):
                path = Path(tmp) / f"{i}.npz"
                write(path, arrays)
                written.append(path)
            write_s = clock.seconds
            size = sum(p.stat().st_size for p in written)
            clock.restart()
            for path in written:
                with np.load(path, allow_pickle=False) as data:
                    for member in data.files:
                        data[member]
            read_s = clock.seconds
        print(f"| {name} | {size / 1e6:,.0f} MB ({raw / size:.1f}x smaller) | {write_s:.1f} s | {read_s:.1f} s |")


if __name__ == "__main__":
    main()
