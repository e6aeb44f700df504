"""Results of earlier runs, keyed by everything they depend on.

An entry is keyed by the file's path and bytes, jaxlint's version and code, and the settings
that decide its findings (rules, project names, index on or off). It also records the
project modules the file's analysis consulted, with their content hashes: an entry is used
only while those are unchanged. Entries are written to a temporary file and renamed, so
concurrent runs never see half an entry; a corrupt or unreadable entry is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path

from jaxlint import __version__
from jaxlint.files import CACHE_DIRNAME
from jaxlint.finding import Finding

DIRNAME = CACHE_DIRNAME
FORMAT = "1"


def _code_stamp() -> str:
    """Changes whenever jaxlint's own code does (an installed release or a checkout)."""
    root = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Cache:
    def __init__(self, folder: str, settings_fingerprint: str) -> None:
        self.folder = Path(folder) / DIRNAME / FORMAT
        self.base = f"{__version__}|{_code_stamp()}|{settings_fingerprint}"

    def key(self, path: str, data: bytes, per_file: str) -> str:
        h = hashlib.sha256(self.base.encode())
        h.update(f"|{os.path.abspath(path)}|{per_file}|".encode())
        h.update(data)
        return h.hexdigest()

    def get(self, key: str, path: str) -> list[Finding] | None:
        try:
            entry = json.loads((self.folder / f"{key}.json").read_text())
            for dep, expected in entry["deps"].items():
                if digest(Path(dep).read_bytes()) != expected:
                    return None
            return [Finding(**{**row, "path": path,
                               "region": tuple(row["region"]) if row["region"] else None})
                    for row in entry["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, findings: list[Finding], deps: set[str]) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            top = self.folder.parent
            if not (top / "CACHEDIR.TAG").exists():
                (top / "CACHEDIR.TAG").write_text(
                    "Signature: 8a477f597d28d172789f06886806bc55\n# jaxlint's cache\n")
                (top / ".gitignore").write_text("*\n")
            rows = [{k: v for k, v in asdict(f).items() if k != "path"} for f in findings]
            entry = {"findings": rows,
                     "deps": {d: digest(Path(d).read_bytes()) for d in sorted(deps)}}
            fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump(entry, f)
            os.replace(tmp, self.folder / f"{key}.json")
        except OSError:
            pass  # a cache that cannot be written only costs time
