"""Crafted tarballs: what a hostile repository (or a man in the middle) could serve."""

from __future__ import annotations

import io
import os
import tarfile
import zlib
from collections.abc import Iterable

ROOT = "octo-org-kernels-abc1234"


def _info(
    name: str, kind: bytes = tarfile.REGTYPE, size: int = 0, link: str = ""
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.size, info.linkname, info.mode = kind, size, link, 0o644
    return info


def tarball(
    files: dict[str, str | bytes],
    *,
    specials: Iterable[tarfile.TarInfo] = (),
    root: str | None = ROOT,
    compress: bool = True,
) -> bytes:
    """A GitHub-style archive: one top folder, then the files, then the special entries."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        if root:
            tar.addfile(_info(root, tarfile.DIRTYPE))
        for path, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            name = f"{root}/{path}" if root else path
            tar.addfile(_info(name, size=len(data)), io.BytesIO(data))
        for info in specials:
            tar.addfile(info)
    raw = out.getvalue()
    return gzip_bytes(raw) if compress else raw


def gzip_bytes(raw: bytes) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    return packer.compress(raw) + packer.flush()


def hostile_entries(marker: str) -> list[tarfile.TarInfo]:
    """One entry of each kind that could touch the machine if it were extracted.

    ``marker`` makes the target names unique, so a test can look for them afterwards."""
    return [
        _info(f"{ROOT}/../../{marker}-traversal.py", size=0),
        _info(f"/tmp/{marker}-absolute.py", size=0),
        _info(f"{ROOT}/{marker}-symlink.cu", tarfile.SYMTYPE, link="/etc/passwd"),
        _info(f"{ROOT}/{marker}-hardlink.cu", tarfile.LNKTYPE, link="/etc/shadow"),
        _info(f"{ROOT}/{marker}-device", tarfile.CHRTYPE),
        _info(f"{ROOT}/{marker}-block", tarfile.BLKTYPE),
        _info(f"{ROOT}/{marker}-fifo", tarfile.FIFOTYPE),
    ]


def gzip_bomb(inflated: int = 2**30) -> bytes:
    """One tar member of ``inflated`` zero bytes, gzipped chunk by chunk: ~1 MB for 1 GB,
    built without ever holding the inflated bytes."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = _info(f"{ROOT}/zeros.py", size=inflated)
    parts = [packer.compress(_info(ROOT, tarfile.DIRTYPE).tobuf(tarfile.PAX_FORMAT))]
    parts.append(packer.compress(member.tobuf(tarfile.PAX_FORMAT)))
    block = bytes(2**20)
    for _ in range(inflated // len(block)):
        parts.append(packer.compress(block))
    parts.append(packer.compress(bytes(1024)))  # end-of-archive blocks
    parts.append(packer.flush())
    return b"".join(parts)


def incompressible(size: int) -> bytes:
    """A valid archive whose gzip is at least ``size`` bytes (random content)."""
    return tarball({"data.bin": os.urandom(size)})
