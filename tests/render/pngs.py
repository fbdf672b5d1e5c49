"""Helpers for reading back the PNGs the renderers produce."""

from __future__ import annotations

import io
import struct

from PIL import Image, ImageStat


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def png_chunk_types(data: bytes) -> list[str]:
    out, pos = [], 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        out.append(data[pos + 4 : pos + 8].decode("ascii"))
        pos += 12 + length
    return out


def colour_count(img: Image.Image) -> int:
    colours = img.getcolors(maxcolors=1 << 20)
    assert colours is not None
    return len(colours)


def spread(img: Image.Image) -> float:
    """Mean standard deviation of the channels: near 0 for a blank image."""
    return sum(ImageStat.Stat(img).stddev) / 3


def count_near(img: Image.Image, colour: tuple[int, int, int], tol: int = 24) -> int:
    r0, g0, b0 = colour
    raw = img.tobytes()
    return sum(
        1
        for r, g, b in zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
        if abs(r - r0) <= tol and abs(g - g0) <= tol and abs(b - b0) <= tol
    )
