"""A small writer of XQF files (XQStudio's binary Xiangqi records) for the tests.

Written from the public description of the format: a 1024-byte header (the signature `XQ`,
the version, the key bytes of the encrypted versions, the 32 piece places, the result, the
kind of record, length-prefixed GB18030 texts), then the move records as a tree written
depth first (a record, then its first child's subtree, then its next sibling's).

- Version 10 (XQF 1.0), not encrypted: each record is origin + 24, destination + 32, a tag
  (0xF0 when a next move follows, 0x0F when a variation follows), a reserved byte, and a
  32-bit comment length, then the comment.
- Versions 11 and later: header bytes 3 and 8–15 are keys. Places are shifted by a key (and
  from version 12 rotated), move squares by two more; a record is four bytes, tag 0x80 for a
  next move, 0x40 for a variation, 0x20 when a comment length (shifted by a key) and the
  comment follow; every byte from 0x400 on is shifted by a 32-byte key stream.
"""

from __future__ import annotations

import dataclasses
import random

HEADER_LEN = 0x400
STREAM_MASK = b"[(C) Copyright Mr. Dong Shiwei.]"
# The piece of each of a side's 16 places.
PLACE_ROLES = "RNBAKABNRCCPPPPP"
TEXT_FIELDS = {  # name: (offset, size)
    "title": (0x50, 64),
    "event": (0xD0, 64),
    "date": (0x110, 16),
    "site": (0x120, 16),
    "red": (0x130, 16),
    "black": (0x140, 16),
    "annotator": (0x1D0, 16),
    "author": (0x1E0, 16),
}


@dataclasses.dataclass
class Node:
    """A move (UCI coordinates, ranks 1–10; None for the record before the first move), its
    comment, and the moves after it: the first is the main continuation, the others its
    alternatives."""

    move: str | None
    comment: str | None = None
    children: list["Node"] = dataclasses.field(default_factory=list)


def point(square: str) -> int:
    """`h10` as the XQF point x·10 + y (file from Red's left, rank from Red's side, from 0)."""
    return (ord(square[0]) - ord("a")) * 10 + int(square[1:]) - 1


def move_points(uci: str) -> tuple[int, int]:
    split = next(i for i in range(1, len(uci)) if uci[i].isalpha())
    return point(uci[:split]), point(uci[split:])


def places_of(fen: str) -> list[int]:
    """The 32 place bytes of a FEN placement (0xFF: not on the board)."""
    pieces: dict[str, list[int]] = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        x = 0
        for ch in text:
            if ch.isdigit():
                x += int(ch)
                continue
            pieces.setdefault(ch, []).append(x * 10 + (9 - row))
            x += 1
    places = []
    for side in (str.upper, str.lower):
        for role in PLACE_ROLES:
            letter = side(role)
            found = pieces.get(letter, [])
            places.append(found.pop(0) if found else 0xFF)
    left = [k for k, v in pieces.items() if v]
    if left:
        raise ValueError(f"more pieces than XQF has places: {left}")
    return places


@dataclasses.dataclass
class Keys:
    places: int = 0
    origin: int = 0
    destination: int = 0
    comment: int = 0
    stream: bytes = bytes(32)


def keys_of(head: bytes, version: int) -> Keys:
    """The keys the header bytes 3 and 8–15 give (none before version 11)."""
    if version < 11:
        return Keys()

    def grow(b: int) -> int:
        return 54 * b * b + 221

    places = grow(head[13]) * head[13] & 0xFF
    origin = grow(head[14]) * places & 0xFF
    destination = grow(head[15]) * origin & 0xFF
    comment = (head[12] * 256 + head[13]) % 32000 + 767
    stream = bytes(STREAM_MASK[i] & (head[8 + i % 4] | (head[12 + i % 4] & head[3]))
                   for i in range(32))
    return Keys(places, origin, destination, comment, stream)


def write(version: int, fen: str, root: Node, texts: dict[str, str], result: int,
          kind: int, rng: random.Random) -> bytes:
    """An XQF file of `version` (10, or 11 to 18 with random keys)."""
    head = bytearray(HEADER_LEN)
    head[0:3] = b"XQ" + bytes([version])
    if version >= 11:
        head[3] = rng.randrange(256)
        for i in range(4, 16):
            head[i] = rng.randrange(256)
    keys = keys_of(bytes(head), version)
    places = places_of(fen)
    for i in range(32):
        slot = (keys.places + 1 + i) % 32 if version >= 12 else i
        head[0x10 + i] = (places[slot] + keys.places) & 0xFF
    head[0x33] = result
    head[0x40] = kind
    for name, text in texts.items():
        offset, size = TEXT_FIELDS[name]
        raw = text.encode("gb18030")
        assert len(raw) < size, (name, text)
        head[offset] = len(raw)
        head[offset + 1:offset + 1 + len(raw)] = raw
    body = bytearray()

    def record(node: Node, has_sibling: bool) -> None:
        frm, to = move_points(node.move) if node.move else (0, 0)
        comment = node.comment.encode("gb18030") if node.comment else b""
        has_next = bool(node.children)
        frm = (frm + 24 + keys.origin) & 0xFF
        to = (to + 32 + keys.destination) & 0xFF
        if version <= 10:
            tag = (0xF0 if has_next else 0) | (0x0F if has_sibling else 0)
            body.extend([frm, to, tag, 0xFF if node.move is None else 0])
            body.extend(len(comment).to_bytes(4, "little"))
        else:
            tag = (0x80 if has_next else 0) | (0x40 if has_sibling else 0) \
                | (0x20 if comment else 0)
            body.extend([frm, to, tag, 0])
            if comment:
                body.extend((len(comment) + keys.comment).to_bytes(4, "little"))
        body.extend(comment)

    # Depth first without recursion: a record, its first child's subtree, then its sibling.
    record(root, False)
    stack = [(root.children, 0)]
    while stack:
        siblings, i = stack.pop()
        if i >= len(siblings):
            continue
        stack.append((siblings, i + 1))
        node = siblings[i]
        record(node, i + 1 < len(siblings))
        stack.append((node.children, 0))
    for i in range(len(body)):
        body[i] = (body[i] + keys.stream[i % 32]) & 0xFF
    return bytes(head) + bytes(body)
