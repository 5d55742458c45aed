import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createDirectoryStore } from './file-store';

describe('file store configuration (decision 024)', () => {
  it('keeps files in UPLOAD_DIR by default', () => {
    const config = loadConfig({});
    expect(config.files).toEqual({ kind: 'directory', dir: './data/uploads', s3: undefined });
    expect(loadConfig({ UPLOAD_DIR: '/srv/shared/uploads' }).files.dir).toBe('/srv/shared/uploads');
  });

  it('takes an S3-compatible bucket, path-style with an endpoint, its prefix a folder', () => {
    const files = loadConfig({
      FILE_STORE: 's3',
      S3_BUCKET: 'hotel-files',
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_PREFIX: 'smartlock',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    }).files;
    expect(files.kind).toBe('s3');
    expect(files.s3).toEqual({
      bucket: 'hotel-files',
      prefix: 'smartlock/',
      region: 'us-east-1',
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    // AWS itself: virtual-hosted URLs, credentials from the client's own chain when none are given.
    const aws = loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'hotel-files', S3_REGION: 'eu-west-1' }).files.s3!;
    expect(aws).toMatchObject({ prefix: '', region: 'eu-west-1', endpoint: undefined, forcePathStyle: false, accessKeyId: undefined });
    expect(loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'http://x', S3_FORCE_PATH_STYLE: 'false' }).files.s3!.forcePathStyle).toBe(false);
  });

  it('refuses an S3 store without a bucket, a bad bucket or prefix, and half a key pair', () => {
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'Has_Capitals' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_PREFIX: '../up' })).toThrow(/S3_PREFIX/);
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_PREFIX: 'a//b' })).toThrow(/S3_PREFIX/);
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ FILE_STORE: 'ftp' })).toThrow(/FILE_STORE/);
  });

  it('names nothing outside the store: keys are relative paths of plain names', async () => {
    const store = createDirectoryStore('/nonexistent-root-for-keys');
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '.hidden', 'a/./b', '', 'a\\b', 'a/b/', 'ü.png']) {
      await expect(store.read(key), key).rejects.toThrow(/not a file store key/);
    }
    await expect(store.read('1/ok-name.png')).resolves.toBeUndefined();
  });
});
