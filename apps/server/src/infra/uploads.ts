import { createHash, randomUUID } from 'node:crypto';
import { UPLOAD_PATH_REGEX } from '@console/shared';
import type { FileStore } from './file-store';

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
 * Where a picture lives in the file store (infra/file-store.ts, decision 024): room pictures in
 * the public area `<hotel>/`, served as they are under `/uploads/`; face photos in the private
 * area `faces/<hotel>/`, never served as they are (decision 015). Either way a picture is named by
 * the same path `/uploads/<hotel>/<uuid>.<ext>`.
 */
export type UploadArea = 'public' | 'face';

const FACE_AREA = 'faces';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A file the `/uploads/` route may serve (a path under its root): a public picture, nothing else. */
const PUBLIC_FILE = new RegExp(`^/\\d{1,10}/${UUID}\\.(png|jpg|webp|gif)$`);
const TYPE_OF_EXT: Record<string, string> = Object.fromEntries(SIGNATURES.map((s) => [s.ext, s.type]));

const areaKey = (area: UploadArea, hotelId: number, name: string) => (area === 'face' ? `${FACE_AREA}/${hotelId}/${name}` : `${hotelId}/${name}`);

/** Whether the static route may serve this path below its root (`/<hotel>/<uuid>.<ext>`): never a face photo. */
export function isPublicPictureFile(pathName: string): boolean {
  return PUBLIC_FILE.test(pathName);
}

/** A public room picture of `/uploads/<path>` for the `/uploads/` route: its key and type, or undefined for anything else. */
export function publicPictureKey(pathName: string): { key: string; type: string } | undefined {
  if (!isPublicPictureFile(pathName)) return undefined;
  const key = pathName.slice(1);
  return { key, type: TYPE_OF_EXT[key.slice(key.lastIndexOf('.') + 1)]! };
}

/**
 * Stores a picture in `area` and returns its path `/uploads/<hotel>/<random>.<ext>`; undefined
 * when the bytes are not a picture (of one of the `accept` types, when given).
 */
export async function storePicture(
  files: FileStore,
  hotelId: number,
  bytes: Buffer,
  accept?: readonly string[],
  area: UploadArea = 'public',
): Promise<{ url: string; type: string } | undefined> {
  const kind = sniffImage(bytes);
  if (!kind || (accept && !accept.includes(kind.type))) return undefined;
  const name = `${randomUUID()}.${kind.ext}`;
  await files.put(areaKey(area, hotelId, name), bytes, kind.type);
  return { url: `/uploads/${hotelId}/${name}`, type: kind.type };
}

/**
 * The keys a path `/uploads/<hotel>/<uuid>.<ext>` of this hotel may be stored under, by area (a
 * face photo uploaded before decision 015 is still in the public area until it is moved), or
 * undefined for any other path.
 */
export function storedKeys(hotelId: number, url: string): Record<UploadArea, string> | undefined {
  const match = UPLOAD_PATH_REGEX.exec(url);
  if (!match || Number(match[1]) !== hotelId) return undefined;
  const name = `${match[2]}.${match[3]}`;
  return { face: areaKey('face', hotelId, name), public: areaKey('public', hotelId, name) };
}

/**
 * The bytes of a picture this hotel uploaded, recognised again by its bytes (the name says
 * nothing), looked for in `areas` in that order. Undefined when the path is not one of the hotel's
 * uploads, the file is gone, or it is not a picture.
 */
export async function readStoredPictureBytes(
  files: FileStore,
  hotelId: number,
  url: string,
  areas: readonly UploadArea[] = ['face', 'public'],
): Promise<{ bytes: Buffer; type: string; ext: string } | undefined> {
  const keys = storedKeys(hotelId, url);
  if (!keys) return undefined;
  for (const area of areas) {
    const bytes = await files.read(keys[area]);
    if (!bytes) continue;
    const kind = sniffImage(bytes);
    return kind ? { bytes, type: kind.type, ext: kind.ext } : undefined;
  }
  return undefined;
}

/** A picture this hotel uploaded, as `readStoredPictureBytes` finds it: its type, size and SHA-256. */
export async function readStoredPicture(files: FileStore, hotelId: number, url: string): Promise<{ type: string; size: number; sha256: string } | undefined> {
  const stored = await readStoredPictureBytes(files, hotelId, url);
  if (!stored) return undefined;
  return { type: stored.type, size: stored.bytes.length, sha256: createHash('sha256').update(stored.bytes).digest('hex') };
}

/**
 * Makes a picture of this hotel a private face photo: moves it from the public area into the face
 * area (a picture uploaded as a room picture, or a face photo stored before decision 015). True
 * when it moved; nothing happens when it is already private or does not exist.
 */
export async function makeFacePhotoPrivate(files: FileStore, hotelId: number, url: string): Promise<boolean> {
  const keys = storedKeys(hotelId, url);
  if (!keys) return false;
  return files.move(keys.public, keys.face);
}

/** Deletes an uploaded picture of this hotel from both areas (a face photo nobody refers to any more). */
export async function deleteStoredPicture(files: FileStore, hotelId: number, url: string): Promise<void> {
  const keys = storedKeys(hotelId, url);
  if (keys) await Promise.all([files.remove(keys.face), files.remove(keys.public)]);
}
