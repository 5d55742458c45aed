import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryStore, createS3Store, FileStoreUnavailableError, probeFileStore, type FileStore } from './file-store';

/**
 * The two kinds of file store (decision 024) answer alike: a directory (real files on this
 * machine's disk) and an S3-compatible bucket (s3rver, an S3 server written in Node, run here on
 * 127.0.0.1; the AWS client speaks S3's REST protocol to it). s3rver checks the access key but not
 * the request signatures (version 4 signing is not implemented in it): signatures are the AWS
 * client's own work, not tested here.
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-file-store-'));
let s3: S3rver;
let endpoint: string;
const stores: Record<'directory' | 's3', FileStore> = {} as never;

beforeAll(async () => {
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(tmp, 's3rver'), configureBuckets: [{ name: 'contract', configs: [] }] });
  endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  stores.directory = createDirectoryStore(path.join(tmp, 'uploads'));
  stores.s3 = await createS3Store({
    bucket: 'contract',
    prefix: 'install/',
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
});

afterAll(async () => {
  await stores.s3?.close();
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function keysOf(store: FileStore, prefix: string) {
  const keys: string[] = [];
  for await (const file of store.list(prefix)) keys.push(file.key);
  return keys.sort();
}

describe.each(['directory', 's3'] as const)('the %s file store', (kind) => {
  const store = () => stores[kind];
  const run = randomBytes(4).toString('hex');

  it('stores, reads, streams, moves and removes a file; a missing one is undefined, never an error', async () => {
    const bytes = randomBytes(70_000);
    const key = `${run}/a/${run}.png`;
    expect(await store().exists(key)).toBe(false);
    expect(await store().read(key)).toBeUndefined();
    expect(await store().open(key)).toBeUndefined();
    await store().put(key, bytes, 'image/png');
    expect(await store().exists(key)).toBe(true);
    expect((await store().read(key))!.equals(bytes)).toBe(true);
    const opened = (await store().open(key))!;
    expect(opened.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    const moved = `${run}/faces/${run}.png`;
    expect(await store().move(key, moved)).toBe(true);
    expect(await store().exists(key)).toBe(false);
    expect((await store().read(moved))!.equals(bytes)).toBe(true);
    expect(await store().move(key, moved)).toBe(false);
    await store().remove(moved);
    await store().remove(moved);
    expect(await store().exists(moved)).toBe(false);
  });

  it('lists a folder with sizes and times, and only that folder', async () => {
    const before = Date.now() - 5_000;
    await store().put(`${run}/list/1/x.xlsx`, Buffer.from('one'));
    await store().put(`${run}/list/2/y.xlsx`, Buffer.from('second'));
    await store().put(`${run}/listless/z.xlsx`, Buffer.from('other'));
    expect(await keysOf(store(), `${run}/list/`)).toEqual([`${run}/list/1/x.xlsx`, `${run}/list/2/y.xlsx`]);
    const files = [];
    for await (const file of store().list(`${run}/list/`)) files.push(file);
    expect(files.map((f) => f.size).sort()).toEqual([3, 6]);
    expect(files.every((f) => f.modifiedAt.getTime() >= before && f.modifiedAt.getTime() <= Date.now() + 5_000)).toBe(true);
    expect(await keysOf(store(), `${run}/nothing-here/`)).toEqual([]);
    await expect(keysOf(store(), '../')).rejects.toThrow(/not a file store folder/);
  });

  it('stores a staged file whole at commit, and nothing when discarded', async () => {
    const key = `${run}/exports/1/exp.xlsx`;
    const staged = await store().stage(key);
    fs.writeFileSync(staged.path, 'half');
    expect(await store().exists(key)).toBe(false);
    fs.appendFileSync(staged.path, ' and whole');
    await staged.commit('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect((await store().read(key))!.toString()).toBe('half and whole');
    expect(fs.existsSync(staged.path)).toBe(false);

    const dropped = await store().stage(`${run}/exports/1/dropped.xlsx`);
    fs.writeFileSync(dropped.path, 'never');
    await dropped.discard();
    expect(fs.existsSync(dropped.path)).toBe(false);
    expect(await store().exists(`${run}/exports/1/dropped.xlsx`)).toBe(false);
    // Nothing but the committed file (a directory store's staging file sits beside it until then).
    expect(await keysOf(store(), `${run}/exports/`)).toEqual([key]);
  });

  it('is found ready, and an unusable one says what to do', async () => {
    await expect(probeFileStore(store())).resolves.toBeUndefined();
    const broken =
      kind === 's3'
        ? await createS3Store({
            bucket: 'no-such-bucket',
            prefix: '',
            region: 'us-east-1',
            endpoint,
            forcePathStyle: true,
            accessKeyId: 'S3RVER',
            secretAccessKey: 'S3RVER',
          })
        : createDirectoryStore(path.join(tmp, 'a-file'));
    if (kind === 'directory') fs.writeFileSync(path.join(tmp, 'a-file'), 'not a directory');
    try {
      const error = await probeFileStore(broken).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileStoreUnavailableError);
      expect((error as Error).message).toMatch(
        kind === 's3' ? /object store s3:\/\/no-such-bucket\/.*HTTP 404.*S3_BUCKET/ : /upload directory .*a-file.*UPLOAD_DIR/,
      );
    } finally {
      await broken.close();
    }
  });
});

it('keeps each install in its own folder of a shared bucket (S3_PREFIX)', async () => {
  const other = await createS3Store({
    bucket: 'contract',
    prefix: 'other-install/',
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
  try {
    await stores.s3.put('1/shared-name.png', Buffer.from('mine'));
    expect(await other.exists('1/shared-name.png')).toBe(false);
    await other.put('1/shared-name.png', Buffer.from('theirs'));
    expect((await stores.s3.read('1/shared-name.png'))!.toString()).toBe('mine');
    expect(await keysOf(other, '')).toEqual(['1/shared-name.png']);
  } finally {
    await other.close();
  }
});

it('never shows a reader half of a file being replaced in a directory store (an S3 PUT replaces an object whole by itself; s3rver does not, so it is not tried there)', async () => {
  const key = `torn/big.bin`;
  const first = Buffer.alloc(4_000_000, 1);
  const second = Buffer.alloc(4_000_000, 2);
  await stores.directory.put(key, first);
  let writing = true;
  const seen = new Set<string>();
  const reader = (async () => {
    while (writing) {
      const bytes = (await stores.directory.read(key))!;
      seen.add(
        (bytes.length === first.length && (bytes.every((b) => b === 1) ? 'first' : bytes.every((b) => b === 2) ? 'second' : 'mixed')) || `torn ${bytes.length}`,
      );
    }
  })();
  for (let i = 0; i < 3; i += 1) await stores.directory.put(key, i % 2 ? first : second);
  writing = false;
  await reader;
  expect([...seen].filter((s) => s !== 'first' && s !== 'second')).toEqual([]);
});
