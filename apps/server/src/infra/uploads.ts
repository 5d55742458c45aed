import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

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

/** Stores a picture under `<dir>/<hotelId>/<random>.<ext>` and returns its public path `/uploads/...`. */
export async function storePicture(dir: string, hotelId: number, bytes: Buffer): Promise<{ url: string; type: string } | undefined> {
  const kind = sniffImage(bytes);
  if (!kind) return undefined;
  const name = `${randomUUID()}.${kind.ext}`;
  await fs.mkdir(path.join(dir, String(hotelId)), { recursive: true });
  await fs.writeFile(path.join(dir, String(hotelId), name), bytes);
  return { url: `/uploads/${hotelId}/${name}`, type: kind.type };
}
