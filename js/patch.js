// Board patches, the front end's side: apply the changed cells Python sends (see
// src/ipyminesweeper/widget/patch.py for the format: runs of varint gap, varint length, 4-bit states).
// Pure: no DOM. Both sides are tested against each other (tests/widget/test_patch.py runs this in node).

/** The view alphabet; a character's 4-bit code is its position here. */
export const ALPHABET = ".f012345678*XFx";

/** Read a varint at `at`: [value, next position]; throws on a truncated number. */
export function readVarint(bytes, at) {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (at >= bytes.length || scale > 2 ** 28) throw new Error("a patch ends inside a number");
    const byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (!(byte & 0x80)) return [value, at];
  }
}

/**
 * The runs of a patch: [{start, chars}], in order. Throws when a run does not fit `size` cells.
 * @param {Uint8Array} bytes
 * @param {number} size
 * @returns {{start: number, chars: string}[]}
 */
export function decodePatch(bytes, size) {
  const runs = [];
  let position = 0;
  let at = 0;
  while (at < bytes.length) {
    let gap;
    let length;
    [gap, at] = readVarint(bytes, at);
    [length, at] = readVarint(bytes, at);
    const start = position + gap;
    const packed = (length + 1) >> 1;
    if (length < 1 || start + length > size || at + packed > bytes.length) {
      throw new Error(`a run of ${length} cells at ${start} does not fit ${size} cells`);
    }
    let chars = "";
    for (let k = 0; k < length; k++) {
      const byte = bytes[at + (k >> 1)];
      const code = k & 1 ? byte & 0x0f : byte >> 4;
      if (code >= ALPHABET.length) throw new Error("a patch holds a state outside the view alphabet");
      chars += ALPHABET[code];
    }
    runs.push({ start, chars });
    at += packed;
    position = start + length;
  }
  return runs;
}

/** The view `cells` after a patch, and the flat indices it changed. */
export function applyPatch(cells, bytes) {
  const runs = decodePatch(bytes, cells.length);
  const parts = [];
  const changed = [];
  let position = 0;
  for (const { start, chars } of runs) {
    parts.push(cells.slice(position, start), chars);
    for (let k = 0; k < chars.length; k++) changed.push(start + k);
    position = start + chars.length;
  }
  parts.push(cells.slice(position));
  return { cells: parts.join(""), changed };
}

/**
 * A synced `board_patch` value (src/ipyminesweeper/widget/board_sync.py): the version it produces, then runs.
 * @param {Uint8Array} bytes
 * @returns {{version: number, runs: Uint8Array}}
 */
export function readBoardPatch(bytes) {
  const [version, at] = readVarint(bytes, 0);
  return { version, runs: bytes.subarray(at) };
}

/** The bytes of a synced binary value: ipywidgets gives a DataView, other hosts an ArrayBuffer or a typed array. */
export function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(0);
}
