"""Where a benchmark run writes its result files: a folder of the run's own, never the
repository's tracked files. Every script takes ``--out DIR``; without it the run gets a
new folder ``benchmarks/out/<UTC time>-<script>/`` (git-ignored). No engine or site
import, so any benchmark (or its child processes) can load it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

#: The default parent of the runs' folders (in .gitignore).
OUT_ROOT = Path(__file__).resolve().parent / "out"


def add_out_option(parser: argparse.ArgumentParser) -> None:
    """The ``--out DIR`` option: the run's output folder."""
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="the run's output folder (default: a new benchmarks/out/<UTC time>-<script>/)",
    )


def out_dir(out: Path | None, script: str) -> Path:
    """The run's output folder, created: ``out``, or a new one under ``OUT_ROOT`` named by
    the time (UTC) and ``script``."""
    if out is None:
        out = OUT_ROOT / f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}-{script}"
    out.mkdir(parents=True, exist_ok=True)
    return out


def write_json(folder: Path, name: str, data: Any) -> Path:
    """Write ``data`` as ``folder/name`` (indented JSON) and say where on stderr."""
    path = folder / name
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {path}", file=sys.stderr)
    return path
