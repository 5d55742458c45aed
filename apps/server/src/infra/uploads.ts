import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_PATH_REGEX } from '@console/shared';

/** Pictures people may upload, recognised by their first bytes (never by the name or the browser's word). */
const SIGNATURES: { ext: string; type: string; test: (b: Buffer) => boolean }[] = [
  { ext: 'png', type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'webp', type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { ext: 'gif', type: 'image/gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
];

export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export function sniffImage(bytes: Buffer): { ext: string; type: string } | undefined {
  return SIGNATURES.find((s) => s.test(bytes));
}

/**
 * Stores a picture under `<dir>/<hotelId>/<random>.<ext>` and returns its public path `/uploads/...`;
 * undefined when the bytes are not a picture (of one of the `accept` types, when given).
 */
export async function storePicture(dir: string, hotelId: number, bytes: Buffer, accept?: readonly string[]): Promise<{ url: string; type: string } | undefined> {
  const kind = sniffImage(bytes);
  if (!kind || (accept && !accept.includes(kind.type))) return undefined;
  const name = `${randomUUID()}.${kind.ext}`;
  await fs.mkdir(path.join(dir, String(hotelId)), { recursive: true });
  await fs.writeFile(path.join(dir, String(hotelId), name), bytes);
  return { url: `/uploads/${hotelId}/${name}`, type: kind.type };
}

/** The file behind a public path `/uploads/<hotel>/<uuid>.<ext>` of this hotel, or undefined for any other path. */
function storedFile(dir: string, hotelId: number, url: string): string | undefined {
  const match = UPLOAD_PATH_REGEX.exec(url);
  if (!match || Number(match[1]) !== hotelId) return undefined;
  return path.join(dir, String(hotelId), `${match[2]}.${match[3]}`);
}

/**
 * The bytes of a picture this hotel uploaded, recognised again by its bytes (the name says
 * nothing). Undefined when the path is not one of the hotel's uploads, the file is gone, or it is
 * not a picture.
 */
export async function readStoredPictureBytes(dir: string, hotelId: number, url: string): Promise<{ bytes: Buffer; type: string; ext: string } | undefined> {
  const file = storedFile(dir, hotelId, url);
  if (!file) return undefined;
  const bytes = await fs.readFile(file).catch(() => undefined);
  const kind = bytes && sniffImage(bytes);
  if (!bytes || !kind) return undefined;
  return { bytes, type: kind.type, ext: kind.ext };
}

/** A picture this hotel uploaded, as `readStoredPictureBytes` finds it: its type, size and SHA-256. */
export async function readStoredPicture(dir: string, hotelId: number, url: string): Promise<{ type: string; size: number; sha256: string } | undefined> {
  const stored = await readStoredPictureBytes(dir, hotelId, url);
  if (!stored) return undefined;
  return { type: stored.type, size: stored.bytes.length, sha256: createHash('sha256').update(stored.bytes).digest('hex') };
}

/** Deletes an uploaded picture of this hotel (a face photo nobody refers to any more). */
export async function deleteStoredPicture(dir: string, hotelId: number, url: string): Promise<void> {
  const file = storedFile(dir, hotelId, url);
  if (file) await fs.rm(file, { force: true });
}
