import { describe, expect, it } from 'vitest';
import { LIMITS, STORAGE_KEYS } from '@console/shared';
import * as constants from './constants';
import { ReaderError, readerErrorText } from './errors';
import { ReadLockout } from './read-lockout';
import { Type1Reader } from './type1';
import { decodeAnswer, encodeFrame } from './type2';
import type { CardReader, KeyType } from './types';
import { checkBlock, checkBlockData, checkDevice, checkKey, normaliseUid } from './validate';
import { trailerMatches, writeAndVerify } from './write-verify';

const kindOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ReaderError ? error.kind : 'not a ReaderError';
  }
  return null;
};

const kindOfAsync = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error instanceof ReaderError ? error : null;
  }
  return null;
};

describe('reader constants', () => {
  it('are the values of packages/shared (spec §9)', () => {
    expect(constants.READER_TIMEOUT_MS).toBe(LIMITS.readerTimeoutMs);
    expect(constants.READER_WRITE_TIMEOUT_MS).toBe(LIMITS.readerWriteTimeoutMs);
    expect(constants.CARD_READ_LOCKOUT_MS).toBe(LIMITS.cardReadLockoutMs);
    expect(constants.READER_KEY_LENGTH).toBe(LIMITS.readerKeyLength);
    expect(constants.READER_BLOCK_DATA_LENGTH).toBe(LIMITS.readerBlockDataLength);
    expect(constants.READER_TYPE_STORAGE_KEY).toBe(STORAGE_KEYS.cardSenderType);
  });
});

describe('checks before anything is sent to a reader (spec §5)', () => {
  it('a key is required and must be 12 hex characters', () => {
    expect(kindOf(() => checkKey(''))).toBe('keyRequired');
    expect(kindOf(() => checkKey(undefined))).toBe('keyRequired');
    expect(kindOf(() => checkKey('FFFFFFFFFFF'))).toBe('keyLength');
    expect(kindOf(() => checkKey('FFFFFFFFFFFFF'))).toBe('keyLength');
    expect(kindOf(() => checkKey('GGGGGGGGGGGG'))).toBe('keyLength');
    expect(checkKey('a0a1a2a3a4a5')).toBe('A0A1A2A3A4A5');
  });

  it('block data must be 32 hex characters', () => {
    expect(kindOf(() => checkBlockData(''))).toBe('dataLength');
    expect(kindOf(() => checkBlockData('00'.repeat(15)))).toBe('dataLength');
    expect(kindOf(() => checkBlockData('0'.repeat(31) + 'Z'))).toBe('dataLength');
    expect(checkBlockData('ab'.repeat(16))).toBe('AB'.repeat(16));
  });

  it('a block number is required, 0-63', () => {
    expect(kindOf(() => checkBlock(undefined))).toBe('blockRequired');
    expect(kindOf(() => checkBlock(''))).toBe('blockRequired');
    expect(kindOf(() => checkBlock(Number.NaN))).toBe('blockRequired');
    expect(kindOf(() => checkBlock(64))).toBe('blockInvalid');
    expect(kindOf(() => checkBlock(-1))).toBe('blockInvalid');
    expect(kindOf(() => checkBlock(1.5))).toBe('blockInvalid');
    expect(checkBlock(63)).toBe(63);
    expect(checkBlock('4')).toBe(4);
  });

  it('a device number is required', () => {
    expect(kindOf(() => checkDevice(''))).toBe('deviceRequired');
    expect(kindOf(() => checkDevice(undefined))).toBe('deviceRequired');
    expect(checkDevice('SIM-1')).toBe('SIM-1');
  });

  it('card numbers are upper-case hex of 4, 7 or 10 bytes', () => {
    expect(normaliseUid(' 04a1b2c3 ')).toBe('04A1B2C3');
    expect(normaliseUid('04A1B2C3D4E5F6')).toBe('04A1B2C3D4E5F6');
    expect(normaliseUid('123')).toBeNull();
    expect(normaliseUid(12345678)).toBeNull();
  });

  it('drivers refuse bad input before calling the service', async () => {
    const calls: string[] = [];
    const reader = new Type1Reader({ fetch: async (url) => (calls.push(String(url)), new Response('{}')) });
    expect((await kindOfAsync(() => reader.readBlock(4, 'FFFF')))?.kind).toBe('keyLength');
    expect((await kindOfAsync(() => reader.writeBlock(4, 'AB', 'FFFFFFFFFFFF')))?.kind).toBe('dataLength');
    expect((await kindOfAsync(() => reader.writeBlock(Number.NaN, '00'.repeat(16), 'FFFFFFFFFFFF')))?.kind).toBe('blockRequired');
    expect(calls).toEqual([]);
  });
});

describe('reader error texts (spec §8)', () => {
  const t = (key: string, params?: Record<string, unknown>) => (params && Object.keys(params).length > 0 ? `${key} ${JSON.stringify(params)}` : key);

  it('the step text plus the code and the hint for a device failure; the message alone otherwise', () => {
    expect(readerErrorText(new ReaderError('uidFailed', { code: 5, hint: 'checkCard' }), t)).toEqual({
      text: 'readers.withCode {"text":"readers.uidFailed","code":5}',
      hint: 'readers.hintCheckCard',
    });
    expect(readerErrorText(new ReaderError('openFailed', { code: 3, hint: 'checkConnection' }), t).hint).toBe('readers.hintCheckConnection');
    expect(readerErrorText(new ReaderError('noResponse'), t)).toEqual({ text: 'readers.noResponse' });
    expect(readerErrorText(new ReaderError('readerMessage', { params: { message: 'busy' } }), t)).toEqual({ text: 'readers.readerMessage {"message":"busy"}' });
    expect(readerErrorText(new Error('x'), t)).toEqual({ text: 'readers.operationFailed' });
  });
});

/** A type 1 service answering from a script, counting the calls. */
function scripted(answers: Array<Record<string, unknown> | Error | 'hang'>) {
  const funcs: string[] = [];
  const fetchImpl = (async (_url: string, init?: RequestInit) => {
    funcs.push(new URLSearchParams(String(init?.body)).get('func') ?? '');
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next === 'hang') {
      return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify(next), { headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, funcs };
}
const OPENED = { code: 1, retval: 0, msg: 'ok', data: { device_id: 'SIM-0417-8020-0001', snr: 'SIM00000001' } };

describe('type 1 driver: how answers become errors', () => {
  it('no answer (refused, timed out) is noResponse; code 0 is the message; a retval is the code with the hint', async () => {
    expect((await kindOfAsync(() => new Type1Reader({ fetch: scripted([new TypeError('Failed to fetch')]).fetchImpl }).open()))?.kind).toBe('noResponse');
    const hang = new Type1Reader({ fetch: scripted(['hang']).fetchImpl, timeoutMs: 20 });
    expect((await kindOfAsync(() => hang.open()))?.kind).toBe('noResponse');

    const code0 = await kindOfAsync(() => new Type1Reader({ fetch: scripted([{ code: 0, retval: -1, msg: 'unknown func' }]).fetchImpl }).open());
    expect(code0).toMatchObject({ kind: 'readerMessage', params: { message: 'unknown func' } });

    const openFailed = await kindOfAsync(() => new Type1Reader({ fetch: scripted([{ code: 1, retval: 99, msg: 'x' }]).fetchImpl }).open());
    expect(openFailed).toMatchObject({ kind: 'openFailed', code: 99, hint: 'checkConnection' });
    const notConnected = await kindOfAsync(() => new Type1Reader({ fetch: scripted([{ code: 1, retval: 20, msg: 'x' }]).fetchImpl }).open());
    expect(notConnected).toMatchObject({ kind: 'deviceNotConnected', code: 20, hint: 'checkConnection' });

    const { fetchImpl } = scripted([OPENED, { code: 1, retval: 1, msg: 'no card' }, { code: 1, retval: 77, msg: '?' }, { code: 1, retval: 2, msg: 'auth' }]);
    const reader = new Type1Reader({ fetch: fetchImpl });
    expect(await kindOfAsync(() => reader.requestCard())).toMatchObject({ kind: 'noCard', code: 1, hint: 'checkCard' });
    expect(await kindOfAsync(() => reader.requestCard())).toMatchObject({ kind: 'uidFailed', code: 77, hint: 'checkCard' });
    expect(await kindOfAsync(() => reader.readBlock(4, 'FFFFFFFFFFFF'))).toMatchObject({ kind: 'authFailed', code: 2, hint: 'checkCard' });

    const notJson = async () => new Response('<html>', { status: 200 });
    expect((await kindOfAsync(() => new Type1Reader({ fetch: notJson as typeof fetch }).open()))?.kind).toBe('startFailed');
  });

  it('opens on first use, and once more when the service says the device is not open', async () => {
    const { fetchImpl, funcs } = scripted([OPENED, { code: 1, retval: 21, msg: 'device not open' }, OPENED, { code: 1, retval: 0, data: { snr: '04a1b2c3' } }]);
    const reader = new Type1Reader({ fetch: fetchImpl });
    expect(await reader.requestCard()).toBe('04A1B2C3');
    expect(funcs).toEqual(['open', 'card_request', 'open', 'card_request']);
    expect(reader.readerInfo).toEqual({ type: 1, deviceId: 'SIM-0417-8020-0001', serial: 'SIM00000001', simulated: true });
  });
});

describe('type 2 frames', () => {
  it('are 02 LEN CMD DATA BCC 03, and answers are checked', () => {
    expect(encodeFrame(0x12, [4])).toBe('020212041403');
    expect(decodeAnswer('0203120102' + (0x03 ^ 0x12 ^ 0x01 ^ 0x02).toString(16).padStart(2, '0') + '03', 0x12)).toEqual({
      status: 1,
      data: Uint8Array.from([2]),
    });
    expect(decodeAnswer('02031201021003', 0x12)).toBeNull(); // BCC
    expect(decodeAnswer('0203120102' + (0x03 ^ 0x12 ^ 0x01 ^ 0x02).toString(16).padStart(2, '0') + '03', 0x13)).toBeNull(); // another command
    expect(decodeAnswer('0203', 0x12)).toBeNull();
  });
});

describe('the card-read lockout (spec §4)', () => {
  it('warns on a click while reading, ignores a read within 2 s (the same card with a warning), accepts after', () => {
    let now = 10_000;
    const lockout = new ReadLockout({ now: () => now });
    expect(lockout.begin()).toBe('ok');
    expect(lockout.begin()).toBe('busy');
    expect(lockout.end('04a1b2c3')).toBe('accept');
    now += 1_000;
    expect(lockout.begin()).toBe('ok');
    expect(lockout.end('04A1B2C3')).toBe('sameCard');
    now += 500;
    lockout.begin();
    expect(lockout.end('11223344')).toBe('ignored');
    now += 499;
    lockout.begin();
    expect(lockout.end('04A1B2C3')).toBe('sameCard');
    now += 1;
    lockout.begin();
    expect(lockout.end('04A1B2C3')).toBe('accept');
    lockout.begin();
    expect(lockout.end(null)).toBe('failed');
    expect(lockout.isReading).toBe(false);
    lockout.reset();
    lockout.begin();
    expect(lockout.end('04A1B2C3')).toBe('accept');
  });
});

/** A card reader over an in-memory card, enough for writeAndVerify: keys per sector, trailers changing them. */
class FakeReader implements CardReader {
  readonly type = 1 as const;
  readonly readerInfo = null;
  blocks = new Map<number, string>();
  keys = new Map<number, string>();
  writes: number[] = [];
  corrupt = new Set<number>();
  uid = '04A1B2C3';
  private keyOf = (block: number) => this.keys.get(Math.floor(block / 4)) ?? 'FFFFFFFFFFFF';
  async open() {
    return { type: 1 as const, deviceId: 'FAKE', serial: '', simulated: true };
  }
  async requestCard() {
    return this.uid;
  }
  async readBlock(block: number, key: string, _keyType?: KeyType) {
    if (key !== this.keyOf(block)) throw new ReaderError('authFailed', { code: 2 });
    const data = this.blocks.get(block) ?? '0'.repeat(32);
    return block % 4 === 3 ? `000000000000${data.slice(12, 20)}000000000000` : data;
  }
  async writeBlock(block: number, data: string, key: string) {
    if (key !== this.keyOf(block)) throw new ReaderError('authFailed', { code: 2 });
    this.writes.push(block);
    const stored = !this.corrupt.has(block) ? data : block % 4 === 3 ? `00${data.slice(2)}` : `${data.slice(0, 30)}00`;
    this.blocks.set(block, stored);
    if (block % 4 === 3) this.keys.set(Math.floor(block / 4), stored.slice(0, 12));
  }
  async beep() {}
  async captureFingerprint() {
    return { template: '', quality: 0 };
  }
  async dispenserStatus() {
    return { stock: 0, capacity: 0, bin: 0, binCapacity: 0, cardAtReader: false };
  }
  async dispenseCard() {
    return '';
  }
  async captureCard() {}
  async close() {}
}

const D1 = '11'.repeat(16);
const D2 = '22'.repeat(16);
const TRAILER = 'A0A1A2A3A4A5FF078069B0B1B2B3B4B5';

describe('writeAndVerify: a card counts as written only when it reads back the same', () => {
  it('writes, switches to the new key after a trailer, and reads every block back', async () => {
    const reader = new FakeReader();
    await expect(
      writeAndVerify(
        reader,
        [
          { block: 4, data: D1 },
          { block: 7, data: TRAILER },
          { block: 5, data: D2 },
        ],
        'FFFFFFFFFFFF',
        { expectedUid: '04a1b2c3' },
      ),
    ).resolves.toEqual({ uid: '04A1B2C3' });
    expect(reader.writes).toEqual([4, 7, 5]);
    expect(reader.blocks.get(5)).toBe(D2);
  });

  it('a block that reads back different fails the whole write, naming the block', async () => {
    const reader = new FakeReader();
    reader.corrupt.add(5);
    const error = await kindOfAsync(() =>
      writeAndVerify(
        reader,
        [
          { block: 4, data: D1 },
          { block: 5, data: D2 },
        ],
        'FFFFFFFFFFFF',
      ),
    );
    expect(error).toMatchObject({ kind: 'writeVerifyFailed', params: { blocks: '5' }, hint: 'checkCard' });
  });

  it('a trailer that did not take (its new key does not open the sector) fails', async () => {
    const reader = new FakeReader();
    reader.corrupt.add(7);
    const error = await kindOfAsync(() => writeAndVerify(reader, [{ block: 7, data: TRAILER }], 'FFFFFFFFFFFF'));
    expect(error).toMatchObject({ kind: 'writeVerifyFailed', params: { blocks: '7' } });
  });

  it('checks everything before touching the card, and refuses another card', async () => {
    const reader = new FakeReader();
    expect(
      (
        await kindOfAsync(() =>
          writeAndVerify(
            reader,
            [
              { block: 4, data: D1 },
              { block: 5, data: 'XYZ' },
            ],
            'FFFFFFFFFFFF',
          ),
        )
      )?.kind,
    ).toBe('dataLength');
    expect((await kindOfAsync(() => writeAndVerify(reader, [{ block: 4, data: D1 }], 'FFFF')))?.kind).toBe('keyLength');
    expect((await kindOfAsync(() => writeAndVerify(reader, [{ block: 4, data: D1 }], 'FFFFFFFFFFFF', { expectedUid: '11223344' })))?.kind).toBe('cardChanged');
    expect(reader.writes).toEqual([]);
  });

  it('compares trailers by their access bits and a readable key B (key A never reads back)', () => {
    expect(trailerMatches(TRAILER, '000000000000FF078069B0B1B2B3B4B5')).toBe(true);
    expect(trailerMatches(TRAILER, '000000000000FF078069000000000000')).toBe(true);
    expect(trailerMatches(TRAILER, '000000000000FF078000B0B1B2B3B4B5')).toBe(false);
    expect(trailerMatches(TRAILER, '000000000000FF078069B0B1B2B3B4B6')).toBe(false);
  });
});

describe('reader texts', () => {
  it('every reader error, warning and hint has a text in every language', async () => {
    const { READER_ERROR_KINDS } = await import('./errors');
    const { LANGUAGES } = await import('@console/shared');
    const fs = await import('node:fs');
    const keys = [
      ...READER_ERROR_KINDS,
      'withCode',
      'hintCheckCard',
      'hintCheckConnection',
      'clickWhileReading',
      'sameCard',
      'writeCardFailed',
      'simulated',
      'simulatedHint',
    ];
    for (const { header } of LANGUAGES) {
      const texts = JSON.parse(fs.readFileSync(new URL(`../../../../locales/${header}.json`, import.meta.url), 'utf8')) as { readers?: Record<string, string> };
      const missing = keys.filter((k) => typeof texts.readers?.[k] !== 'string');
      expect(missing, header).toEqual([]);
    }
  });
});
