import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type * as S3Types from '@aws-sdk/client-s3';
import type { TConfig } from '../config';

/**
 * Where the files of the install live (room pictures, face photos, exports): the one place every
 * server and worker of the install reads and writes (decision 024). Two kinds, chosen by
 * FILE_STORE:
 * - `directory` (default): UPLOAD_DIR on the local disk; with more than one process it must be a
 *   volume they all mount (NFS, a Docker volume on one host, ...). A file is written beside its
 *   final name and renamed into place, so another process never reads half of one.
 * - `s3`: a bucket of an S3-compatible object store (AWS S3, MinIO, Ceph, R2, ...) through AWS's
 *   client (`@aws-sdk/client-s3`, loaded only then). An object is whole once it is there.
 *
 * A key is a relative path with `/` (`<hotel>/<uuid>.png`, `faces/<hotel>/...`, `exports/...`),
 * the same in both kinds: the directory layout of UPLOAD_DIR is the bucket's key layout, so an
 * install moves from one to the other by copying the tree (`aws s3 sync UPLOAD_DIR s3://bucket/prefix`).
 */
export interface FileStore {
  readonly kind: 'directory' | 's3';
  /** Where, for messages: the directory, or `s3://bucket/prefix`. */
  readonly where: string;
  /** Stores `bytes` under `key`, replacing what was there. */
  put(key: string, bytes: Buffer, contentType?: string): Promise<void>;
  /**
   * A local file to write `key`'s content into (an export's workbook), then `commit` stores it as
   * `key` at once and whole, or `discard` drops it.
   */
  stage(key: string): Promise<StagedFile>;
  /** The bytes under `key`, or undefined when there are none. */
  read(key: string): Promise<Buffer | undefined>;
  /** A stream of the bytes under `key` and their size, or undefined when there are none. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  exists(key: string): Promise<boolean>;
  /** Moves `from` to `to`; false when `from` does not exist. */
  move(from: string, to: string): Promise<boolean>;
  /** Removes `key` (nothing happens when it does not exist). */
  remove(key: string): Promise<void>;
  /** Every file whose key starts with `prefix` (a folder: ends with `/`), with its size and last change. */
  list(prefix: string): AsyncIterable<StoredFile>;
  /** Throws, with the store's own reason, when the store cannot be used now (`/readyz`, the start). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export interface StagedFile {
  /** The local file to write. */
  path: string;
  commit(contentType?: string): Promise<void>;
  discard(): Promise<void>;
}

export interface StoredFile {
  key: string;
  size: number;
  modifiedAt: Date;
}

export class FileStoreUnavailableError extends Error {}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Keys are made by the code, never typed by a client; still, nothing outside the store is ever named. */
function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`not a file store key: ${JSON.stringify(key)}`);
  return key;
}

const PREFIX = /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*$/;
function checkPrefix(prefix: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`not a file store folder: ${JSON.stringify(prefix)}`);
  return prefix;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
const tmpName = () => `.${randomBytes(8).toString('hex')}.part`;

/** The files of UPLOAD_DIR (`dir`, resolved), written beside their name and renamed into place. */
export function createDirectoryStore(dir: string): FileStore {
  const root = path.resolve(dir);
  const file = (key: string) => path.join(root, ...checkKey(key).split('/'));
  const store: FileStore = {
    kind: 'directory',
    where: root,
    async put(key, bytes) {
      const target = file(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}${tmpName()}`;
      try {
        await fsp.writeFile(tmp, bytes);
        await fsp.rename(tmp, target);
      } catch (error) {
        await fsp.rm(tmp, { force: true });
        throw error;
      }
    },
    async stage(key) {
      const target = file(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Beside its final name, on the same file system: committing is a rename.
      const tmp = `${target}${tmpName()}`;
      return {
        path: tmp,
        commit: () => fsp.rename(tmp, target),
        discard: () => fsp.rm(tmp, { force: true }),
      };
    },
    async read(key) {
      return fsp.readFile(file(key)).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
    },
    async open(key) {
      const name = file(key);
      const handle = await fsp.open(name, 'r').catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (!handle) return undefined;
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    },
    async exists(key) {
      return fsp.stat(file(key)).then(
        (s) => s.isFile(),
        (error: unknown) => {
          if (isMissing(error)) return false;
          throw error;
        },
      );
    },
    async move(from, to) {
      const target = file(to);
      try {
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.rename(file(from), target);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async remove(key) {
      await fsp.rm(file(key), { force: true });
    },
    async *list(prefix) {
      const start = path.join(root, ...checkPrefix(prefix).split('/').filter(Boolean));
      const walk = async function* (dir: string, keyPrefix: string): AsyncGenerator<StoredFile> {
        const entries = await fsp.readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
          if (isMissing(error)) return [];
          throw error;
        });
        for (const entry of entries) {
          const key = `${keyPrefix}${entry.name}`;
          if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), `${key}/`);
          else if (entry.isFile()) {
            const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => undefined);
            if (stat) yield { key, size: stat.size, modifiedAt: stat.mtime };
          }
        }
      };
      yield* walk(start, prefix);
    },
    async check() {
      await fsp.mkdir(root, { recursive: true });
      await fsp.access(root, fs.constants.R_OK | fs.constants.W_OK);
    },
    async close() {},
  };
  return store;
}

export interface S3Settings {
  bucket: string;
  /** Key prefix inside the bucket (`''`, or a folder ending with `/`). */
  prefix: string;
  region: string;
  /** An S3-compatible service's URL (MinIO, Ceph, R2, ...); unset: AWS S3 of `region`. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Both or neither; neither: the AWS client's own chain (instance role, web identity, ...). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

type S3Module = typeof S3Types;

const s3Status = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const s3Missing = (error: unknown) => {
  const name = (error as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound' || s3Status(error) === 404;
};

/** A bucket of an S3-compatible object store. */
export async function createS3Store(settings: S3Settings): Promise<FileStore> {
  const s3: S3Module = await import('@aws-sdk/client-s3');
  const client = new s3.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: many S3-compatible stores refuse the newer defaults.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => `${settings.prefix}${checkKey(key)}`;
  const store: FileStore = {
    kind: 's3',
    where: `s3://${Bucket}/${settings.prefix}`,
    async put(key, bytes, contentType) {
      await client.send(new s3.PutObjectCommand({ Bucket, Key: objectKey(key), Body: bytes, ContentLength: bytes.length, ContentType: contentType }));
    },
    async stage(key) {
      objectKey(key);
      const tmp = path.join(os.tmpdir(), `sl-file-store-${randomBytes(8).toString('hex')}.part`);
      return {
        path: tmp,
        async commit(contentType) {
          try {
            const { size } = await fsp.stat(tmp);
            await client.send(
              new s3.PutObjectCommand({ Bucket, Key: objectKey(key), Body: fs.createReadStream(tmp), ContentLength: size, ContentType: contentType }),
            );
          } finally {
            await fsp.rm(tmp, { force: true });
          }
        },
        discard: () => fsp.rm(tmp, { force: true }),
      };
    },
    async read(key) {
      const opened = await store.open(key);
      if (!opened) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    },
    async open(key) {
      try {
        const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return { stream: answer.Body as Readable, size: Number(answer.ContentLength ?? 0) };
      } catch (error) {
        if (s3Missing(error)) return undefined;
        throw error;
      }
    },
    async exists(key) {
      try {
        await client.send(new s3.HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (s3Missing(error)) return false;
        throw error;
      }
    },
    async move(from, to) {
      try {
        // CopySource is `bucket/key`, URL-encoded (keys here are plain ASCII; the slashes stay).
        await client.send(new s3.CopyObjectCommand({ Bucket, Key: objectKey(to), CopySource: `${Bucket}/${objectKey(from)}` }));
      } catch (error) {
        if (s3Missing(error)) return false;
        throw error;
      }
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: objectKey(from) }));
      return true;
    },
    async remove(key) {
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list(prefix) {
      const full = `${settings.prefix}${checkPrefix(prefix)}`;
      let token: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket, Prefix: full, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key.slice(settings.prefix.length), size: Number(object.Size ?? 0), modifiedAt: object.LastModified ?? new Date(0) };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async check() {
      await client.send(new s3.HeadBucketCommand({ Bucket }));
    },
    async close() {
      client.destroy();
    },
  };
  return store;
}

/** The store FILE_STORE asks for. */
export function createFileStore(config: Pick<TConfig, 'files'>): Promise<FileStore> {
  const files = config.files;
  if (files.kind === 's3') return createS3Store(files.s3!);
  return Promise.resolve(createDirectoryStore(files.dir));
}

/** Checks the store answers, or throws FileStoreUnavailableError saying what to do. */
export async function probeFileStore(store: FileStore): Promise<void> {
  try {
    await store.check();
  } catch (error) {
    const status = s3Status(error);
    const reason = `${(error as Error).name && (error as Error).name !== 'Error' ? `${(error as Error).name}: ` : ''}${(error as Error).message || 'no answer'}${status ? ` (HTTP ${status})` : ''}`;
    throw new FileStoreUnavailableError(
      store.kind === 's3'
        ? `Cannot use the object store ${store.where} (${reason}). The console keeps room pictures, face photos and exports there. Check S3_BUCKET (the bucket must exist), S3_ENDPOINT, S3_REGION and the credentials (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY), then start the console again.`
        : `Cannot use the upload directory ${store.where} (${reason}). The console keeps room pictures, face photos and exports there: make it writable by the user the console runs as (with several servers, a volume every one of them mounts), or point UPLOAD_DIR at one, then start the console again.`,
      { cause: error },
    );
  }
}
