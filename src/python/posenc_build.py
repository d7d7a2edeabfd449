"""The PEP 517 build backend of the posenc Python package (pyproject.toml:
build-backend = "posenc_build", backend-path = ["src/python"]). It needs no
package from an index (requires = []), so `pip install .` works offline: it
builds the C library's shared object with the repository's Makefile (make and
a C compiler, as C users build it), writes the status-code table from the JS
package's src/js/runtime/status.js, and zips the wheel itself.

The wheel is tagged py3-none-<platform>: pure Python over a shared library
built for this machine (no extension module, so any Python 3 of the platform).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import os
import re
import subprocess
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "python" / "posenc"
NAME = "posenc"


def _version() -> str:
    header = (ROOT / "src" / "core" / "posenc.h").read_text(encoding="utf-8")
    return re.search(r'^#define PE_VERSION_STRING\s+"([^"]+)"', header, re.M).group(1)


def _metadata() -> str:
    readme = (ROOT / "src" / "python" / "README.md")
    description = readme.read_text(encoding="utf-8") if readme.exists() else ""
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {_version()}\n"
        "Summary: Positional encodings for transformers (sinusoidal, RoPE and its scalings, ALiBi), exact and "
        "bit-identical to the posenc C library and JS package\n"
        "License: MIT\n"
        "Requires-Python: >=3.8\n"
        "Requires-Dist: numpy\n"
        "Description-Content-Type: text/markdown\n\n" + description
    )


def _tag() -> str:
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{platform}"


def _status_codes() -> str:
    spec = importlib.util.spec_from_file_location("_posenc_status_table", PACKAGE / "_status_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    table = module.parse_status_js((ROOT / "src" / "js" / "runtime" / "status.js").read_text(encoding="utf-8"))
    lines = "".join(f"    {name!r}: {code!r},\n" for name, code in table.items())
    return (
        '"""Generated at build time from src/js/runtime/status.js (CODE_OF_STATUS): C status name -> JS code."""\n\n'
        f"CODE_OF_STATUS = {{\n{lines}}}\n"
    )


def _shared_library(build_dir: str) -> Path:
    """libposenc.so built by the Makefile into build_dir; its real file (libposenc.so.VERSION)."""
    jobs = str(max(1, min(4, os.cpu_count() or 1)))
    command = ["make", "-C", str(ROOT), f"-j{jobs}", "shared", f"BUILDDIR={build_dir}"]
    try:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    except FileNotFoundError:
        raise RuntimeError("posenc: building the wheel needs make and a C compiler (cc)") from None
    return Path(build_dir) / f"libposenc.so.{_version()}"


def _dist_info() -> str:
    return f"{NAME}-{_version()}.dist-info"


def _write_metadata(directory: Path) -> str:
    info = directory / _dist_info()
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(), encoding="utf-8")
    return info.name


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


# ---- PEP 517 hooks ----


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_metadata(Path(metadata_directory))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files: dict[str, bytes] = {}
    for source in sorted(PACKAGE.glob("*.py")) + [PACKAGE / "py.typed"]:  # py.typed: PEP 561's marker
        files[f"{NAME}/{source.name}"] = source.read_bytes()
    files[f"{NAME}/_status_codes.py"] = _status_codes().encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="posenc-wheel-") as build_dir:
        library = _shared_library(build_dir)
        files[f"{NAME}/libposenc.so"] = library.read_bytes()
    info = _dist_info()
    files[f"{info}/METADATA"] = _metadata().encode("utf-8")
    files[f"{info}/WHEEL"] = (
        f"Wheel-Version: 1.0\nGenerator: posenc_build\nRoot-Is-Purelib: false\nTag: {_tag()}\n"
    ).encode("utf-8")
    files[f"{info}/top_level.txt"] = f"{NAME}\n".encode("utf-8")
    license_file = ROOT / "LICENSE"
    if license_file.exists():
        files[f"{info}/LICENSE"] = license_file.read_bytes()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The sources the wheel is built from: the Makefile, the C core and its packaging, the package, status.js."""
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    paths = ["Makefile", "pyproject.toml", "LICENSE", "README.md", "src/js/runtime/status.js"]
    for folder in ("src/core", "src/lib", "src/python"):
        paths += sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in paths:
            if (ROOT / path).exists():
                archive.add(ROOT / path, arcname=f"{base}/{path}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode("utf-8")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return name
