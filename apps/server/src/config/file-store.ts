import { z } from 'zod';
import { bool, type Refusal } from './variables';

/**
 * Where pictures, face photos and exports are kept (decision 024): `directory` (UPLOAD_DIR; with
 * several servers, a volume they all mount) or `s3` (a bucket of an S3-compatible object store).
 */
export const fileStoreEnv = z.object({
  FILE_STORE: z.enum(['directory', 's3']).default('directory'),
  /** The directory of FILE_STORE=directory (a volume in Docker). */
  UPLOAD_DIR: z.string().default('./data/uploads'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots and hyphens)' })
    .optional(),
  /** A folder inside the bucket for this install's files (`smartlock/`); empty: the bucket's root. */
  S3_PREFIX: z
    .string()
    .regex(/^$|^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/, {
      message: 'S3_PREFIX must be a folder name of letters, digits, dots, hyphens and underscores (nested with /)',
    })
    .default(''),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** An S3-compatible service's URL (MinIO, Ceph, Garage, R2, ...); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: z.string().url().optional(),
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`), what most S3-compatible services need; default: on with S3_ENDPOINT. */
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
});
type FileStoreEnv = z.output<typeof fileStoreEnv>;

/** A bucket for FILE_STORE=s3, and the S3 key's two halves together or neither. */
export function fileStoreRefusals(env: FileStoreEnv): Refusal[] {
  const refusals: Refusal[] = [];
  if (env.FILE_STORE === 's3' && !env.S3_BUCKET) {
    refusals.push({
      path: 'S3_BUCKET',
      message: 'FILE_STORE=s3 needs S3_BUCKET (an existing bucket), and S3_ENDPOINT for a service other than AWS S3',
    });
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    refusals.push({
      path: 'S3_SECRET_ACCESS_KEY',
      message:
        'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS client then finds credentials itself: an instance role, web identity)',
    });
  }
  return refusals;
}

/** The file store: its kind, its directory, and its bucket when it is `s3`. */
export function fileStoreSettings(env: FileStoreEnv) {
  return {
    kind: env.FILE_STORE,
    dir: env.UPLOAD_DIR,
    s3:
      env.FILE_STORE === 's3'
        ? {
            bucket: env.S3_BUCKET!,
            prefix: env.S3_PREFIX && !env.S3_PREFIX.endsWith('/') ? `${env.S3_PREFIX}/` : env.S3_PREFIX,
            region: env.S3_REGION,
            endpoint: env.S3_ENDPOINT,
            forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          }
        : undefined,
  };
}
