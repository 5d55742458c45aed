import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { FACE_RULES } from '@console/shared';

/**
 * Real pictures made for tests: decodable PNG and JPEG files, each of its own (random pixels or a
 * random comment, so every SHA-256 differs), by default just over the 300 KB a face photo needs
 * (TTLock face/getFeatureDataByPhoto takes 300 KB to 2 MB), or of an exact size in bytes.
 */

/** Somewhat over the face photo minimum: what a face photo of a test is by default. */
export const FACE_PHOTO_BYTES = FACE_RULES.imageMinBytes + 20 * 1024;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A square colour PNG (8-bit RGB) of random pixels, without padding. */
function randomPng(side: number): { head: Buffer; tail: Buffer } {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  const rowBytes = 1 + side * 3;
  const raw = randomBytes(rowBytes * side);
  for (let y = 0; y < side; y++) raw[y * rowBytes] = 0; // filter: none
  // Stored (level 0): random pixels do not compress, and the size stays predictable.
  const idat = zlib.deflateSync(raw, { level: 0 });
  return { head: Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr)]), tail: Buffer.concat([pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]) };
}

/**
 * A real colour PNG of exactly `bytes` bytes (random pixels, then a `tEXt` comment making up the
 * rest). At least 64 bytes.
 */
export function pngPhoto(bytes = FACE_PHOTO_BYTES): Buffer {
  // About 90% pixels, the rest comment.
  let side = Math.max(1, Math.floor(Math.sqrt((bytes * 0.9) / 3)));
  for (;;) {
    const { head, tail } = randomPng(side);
    const room = bytes - head.length - tail.length - 12;
    if (room >= 8) {
      const text = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(room - 8, 0x20)]);
      const out = Buffer.concat([head, pngChunk('tEXt', text), tail]);
      if (out.length !== bytes) throw new Error(`pngPhoto: made ${out.length} bytes, not ${bytes}`);
      return out;
    }
    if (side === 1) throw new Error(`pngPhoto: ${bytes} bytes is too small for a PNG`);
    side = Math.max(1, Math.floor(side / 2));
  }
}

/** Bits written most significant first, with JPEG's byte stuffing (0xFF is followed by 0x00). */
function jpegBits(codes: [value: number, length: number][]): Buffer {
  const out: number[] = [];
  let acc = 0;
  let n = 0;
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      acc = (acc << 1) | ((value >> i) & 1);
      if (++n === 8) {
        out.push(acc);
        if (acc === 0xff) out.push(0);
        acc = 0;
        n = 0;
      }
    }
  };
  for (const [value, length] of codes) put(value, length);
  if (n) put(0xff, 8 - n); // pad with ones
  return Buffer.from(out);
}

const segment = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff]), data]);

/**
 * A real baseline JPEG of exactly `bytes` bytes: 8 x 8 pixels of one random colour (YCbCr 4:4:4,
 * one block per component, coded by its DC value alone), then comment segments (COM) making up
 * the rest, as cameras' metadata do. At least 400 bytes.
 */
export function jpegPhoto(bytes = FACE_PHOTO_BYTES): Buffer {
  const dqt = segment(0xdb, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)]));
  const sof = segment(0xc0, Buffer.from([8, 0, 8, 0, 8, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]));
  // DC table 0: the 12 categories, 4-bit codes 0000..1011; AC table 0: end of block only, code "0".
  const dcCounts = Buffer.alloc(16);
  dcCounts[3] = 12;
  const acCounts = Buffer.alloc(16);
  acCounts[0] = 1;
  const dht = segment(
    0xc4,
    Buffer.concat([Buffer.from([0x00]), dcCounts, Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), Buffer.from([0x10]), acCounts, Buffer.from([0x00])]),
  );
  const sos = segment(0xda, Buffer.from([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]));
  // A colourful flat block per component: DC = 8 x (level - 128) with a quantiser of 1.
  const [y, cb, cr] = [...randomBytes(3)].map((v, i) => (i === 0 ? 60 + (v % 136) : v % 2 ? 30 + (v % 40) : 190 + (v % 60)));
  const codes: [number, number][] = [];
  for (const level of [y!, cb!, cr!]) {
    const dc = 8 * (level - 128);
    const category = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1;
    codes.push([category, 4]);
    if (category) codes.push([dc > 0 ? dc : dc - 1 + (1 << category), category]);
    codes.push([0, 1]); // end of block
  }
  const head = Buffer.from([0xff, 0xd8]);
  const body = Buffer.concat([dqt, sof, dht, sos, jpegBits(codes), Buffer.from([0xff, 0xd9])]);
  let rest = bytes - head.length - body.length;
  if (rest < 0 || (rest > 0 && rest < 5)) throw new Error(`jpegPhoto: ${bytes} bytes cannot be made`);
  const comments: Buffer[] = [];
  while (rest > 0) {
    // One segment holds at most 65,533 bytes of data; never leave less than a segment's 5 bytes.
    let data = Math.min(rest - 4, 65_533);
    if (rest - 4 - data > 0 && rest - 4 - data < 5) data -= 5;
    comments.push(segment(0xfe, Buffer.concat([randomBytes(Math.min(8, data)).map((b) => 0x41 + (b % 26)), Buffer.alloc(Math.max(0, data - 8), 0x20)])));
    rest -= data + 4;
  }
  const out = Buffer.concat([head, ...comments, body]);
  if (out.length !== bytes) throw new Error(`jpegPhoto: made ${out.length} bytes, not ${bytes}`);
  return out;
}
