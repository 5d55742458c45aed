import { createHash } from 'node:crypto';

/**
 * Face photos and feature data in the simulator. TTLock's cloud turns a photo into the feature data
 * of one lock's face module (`face/getFeatureDataByPhoto`); `face/add` takes only that. The
 * simulator has no face module: its feature data is a hash of the lock and the photo's bytes, with
 * a check that ties it to the lock, so tests can predict it and `face/add` can tell it from
 * anything else without keeping a list.
 */

/** TTLock takes face photos of at most 2 MB (it asks for 300 KB at least too; the simulator does not check that). */
export const FACE_PHOTO_MAX_BYTES = 2 * 1024 * 1024;

/** A file of a multipart body. */
export interface SimUpload {
  bytes: Buffer;
  contentType: string | undefined;
  fileName: string;
}

/** Photos TTLock takes (jpg, png, bmp), recognised by their first bytes. */
const PHOTO_SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'bmp', test: (b) => b.subarray(0, 2).toString('latin1') === 'BM' },
];

export function photoType(bytes: Buffer): string | undefined {
  return PHOTO_SIGNATURES.find((s) => s.test(bytes))?.type;
}

const sha256 = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex').toUpperCase();
};

const checkOf = (lockId: number, data: string) => sha256(`lock-sim feature check:${lockId}:`, data).slice(0, 16);

/**
 * The feature data the simulated cloud answers for this photo on this lock: 80 upper-case hex
 * digits, the SHA-256 of `lock-sim face:<lockId>:` and the photo's bytes, then 16 digits of a check
 * for the lock. The same photo gives other feature data on another lock.
 */
export function simFaceFeatureData(lockId: number, photo: Buffer): string {
  const data = sha256(`lock-sim face:${lockId}:`, photo);
  return `${data}${checkOf(lockId, data)}`;
}

/** True when `featureData` is what the simulated cloud made from some photo for this lock (any case). */
export function isSimFeatureDataFor(lockId: number, featureData: string): boolean {
  const upper = featureData.toUpperCase();
  if (!/^[0-9A-F]{80}$/.test(upper)) return false;
  return checkOf(lockId, upper.slice(0, 64)) === upper.slice(64);
}

/**
 * A `multipart/form-data` body: its text fields and its files by field name. Null when it cannot be
 * read (no boundary, no delimiter, a part without headers or end).
 */
export function parseMultipart(body: Buffer, contentType: string): { fields: Record<string, string>; files: Record<string, SimUpload> } | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const nextDelimiter = Buffer.concat([Buffer.from('\r\n'), delimiter]);
  const fields: Record<string, string> = {};
  const files: Record<string, SimUpload> = {};
  let pos = body.indexOf(delimiter);
  if (pos < 0) return null;
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return { fields, files };
    if (body.subarray(pos, pos + 2).toString('latin1') !== '\r\n') return null;
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) return null;
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const end = body.indexOf(nextDelimiter, headerEnd + 4);
    if (end < 0) return null;
    const content = body.subarray(headerEnd + 4, end);
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers)?.[1] ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    const fileName = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    if (name !== undefined) {
      if (fileName !== undefined)
        files[name] = { bytes: Buffer.from(content), contentType: /^content-type:\s*([^\r\n;]+)/im.exec(headers)?.[1]?.trim(), fileName };
      else fields[name] = content.toString('utf8');
    }
    pos = end + 2;
  }
}
