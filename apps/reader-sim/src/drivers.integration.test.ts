import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReaderError, createReader, writeAndVerify, type CardReader, type ReaderType, type WebSocketFactory } from '../../web/src/readers';
import { ReaderSimControl } from './control-client';
import { FREE_PORTS, startReaderSim, type ReaderSim } from './server';

/**
 * The console's reader drivers (apps/web/src/readers) against the simulator, one run per reader
 * type: what a screen sees through the one CardReader interface.
 */

const FACTORY_KEY = 'FFFFFFFFFFFF';
const HOTEL_KEY = 'A1B2C3D4E5F6';
const ZEROS = '0'.repeat(32);
const D1 = '0123456789ABCDEF0123456789ABCDEF';
const D2 = 'FEDCBA9876543210FEDCBA9876543210';
const TRAILER = `${HOTEL_KEY}FF078069B0B1B2B3B4B5`;

let sim: ReaderSim;
let control: ReaderSimControl;

beforeAll(async () => {
  sim = await startReaderSim({ ports: FREE_PORTS });
  control = new ReaderSimControl(sim.controlUrl);
});
afterAll(() => sim.close());

const baseUrl = (type: ReaderType) => (type === 1 ? sim.urls.type1 : type === 2 ? sim.urls.type2 : sim.urls.type3);
const makeReader = (type: ReaderType, options: { timeoutMs?: number } = {}) =>
  createReader(type, { baseUrl: baseUrl(type), WebSocket: WebSocket as unknown as WebSocketFactory, ...options });

async function failure(run: () => Promise<unknown>): Promise<ReaderError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ReaderError) return error;
    throw error;
  }
  throw new Error('expected a ReaderError');
}

describe.each([1, 2, 3] as const)('reader type %i driver against the simulator', (type) => {
  let reader: CardReader;
  beforeEach(async () => {
    await control.reset();
    reader = makeReader(type);
  });
  afterEach(() => reader.close());

  it('opens the reader (device id and serial, simulated), requests the card, reads and writes blocks', async () => {
    const overview = await control.overview();
    const info = await reader.open();
    expect(info).toEqual({ type, deviceId: overview.device.deviceId, serial: overview.device.serial, simulated: true });
    expect(reader.readerInfo).toEqual(info);

    expect(await failure(() => reader.requestCard())).toMatchObject({ kind: 'noCard', step: 'request', hint: 'checkCard', code: 1 });
    const card = await control.placeCard();
    expect(await reader.requestCard()).toBe(card.uid);
    expect(await reader.readBlock(4, FACTORY_KEY)).toBe(ZEROS);
    expect(await failure(() => reader.readBlock(4, HOTEL_KEY))).toMatchObject({ kind: 'authFailed', step: 'read', hint: 'checkCard', code: 2 });
    await reader.writeBlock(4, D1.toLowerCase(), FACTORY_KEY.toLowerCase());
    expect(await reader.readBlock(4, FACTORY_KEY)).toBe(D1);
    expect((await control.card()).blocks[4]).toBe(D1);
    expect(await failure(() => reader.writeBlock(0, D1, FACTORY_KEY))).toMatchObject({ kind: 'writeFailed', step: 'write', code: 4 });
    await reader.beep(120);
    expect((await control.overview()).beeps.count).toBe(1);
  });

  it('writes a card with new keys and verifies it: the new key reads it, the factory key no longer does', async () => {
    const card = await control.placeCard();
    await writeAndVerify(
      reader,
      [
        { block: 4, data: D1 },
        { block: 5, data: D2 },
        { block: 7, data: TRAILER },
      ],
      FACTORY_KEY,
      { expectedUid: card.uid },
    );
    expect(await reader.readBlock(5, HOTEL_KEY)).toBe(D2);
    expect(await failure(() => reader.readBlock(5, FACTORY_KEY))).toMatchObject({ kind: 'authFailed' });
    expect((await control.card()).sectors[1]).toMatchObject({ keyA: HOTEL_KEY, blocks: [D1, D2, ZEROS, TRAILER] });
    // Rewriting the card later uses the hotel's key.
    await writeAndVerify(reader, [{ block: 4, data: D2 }], HOTEL_KEY);
    expect(await failure(() => writeAndVerify(reader, [{ block: 4, data: D1 }], HOTEL_KEY, { expectedUid: '00000001' }))).toMatchObject({
      kind: 'cardChanged',
    });
  });

  it('a write that fails, or that reads back different, is never a card written', async () => {
    await control.placeCard();
    await control.failNext('write');
    expect(await failure(() => writeAndVerify(reader, [{ block: 4, data: D1 }], FACTORY_KEY))).toMatchObject({
      kind: 'writeFailed',
      code: 6,
      hint: 'checkCard',
    });
    await control.failNext('write', 'corrupt');
    expect(
      await failure(() =>
        writeAndVerify(
          reader,
          [
            { block: 4, data: D1 },
            { block: 5, data: D2 },
          ],
          FACTORY_KEY,
        ),
      ),
    ).toMatchObject({
      kind: 'writeVerifyFailed',
      params: { blocks: '4' },
    });
    // A trailer whose general purpose byte did not take.
    await control.failNext('write', 'corrupt');
    expect(await failure(() => writeAndVerify(reader, [{ block: 11, data: TRAILER }], FACTORY_KEY))).toMatchObject({
      kind: 'writeVerifyFailed',
      params: { blocks: '11' },
    });
    // Validation happens before the card is touched.
    const calls = (await control.call<{ calls: unknown[] }>('GET', '/calls')).calls.length;
    expect(await failure(() => writeAndVerify(reader, [{ block: 4, data: 'XYZ' }], FACTORY_KEY))).toMatchObject({ kind: 'dataLength', step: 'validate' });
    expect(await failure(() => reader.readBlock(4, 'FFFF'))).toMatchObject({ kind: 'keyLength' });
    expect((await control.call<{ calls: unknown[] }>('GET', '/calls')).calls.length).toBe(calls);
  });

  it('an unplugged device is reported; plugged back, the driver opens it again by itself', async () => {
    await control.placeCard();
    await reader.open();
    await control.setConnected(false);
    const unplugged = await failure(() => reader.requestCard());
    expect(unplugged).toMatchObject({ kind: type === 2 ? 'deviceNotFound' : 'deviceNotConnected', hint: 'checkConnection' });
    expect(await failure(() => makeReader(type).open())).toMatchObject({ kind: type === 2 ? 'deviceNotFound' : 'deviceNotConnected' });
    await control.setConnected(true);
    expect(await reader.requestCard()).toMatch(/^[0-9A-F]{8}$/);
  });

  it('the reader software not running: "no response" (open the reader software); running again: it works', async () => {
    await control.setServices({ running: false });
    try {
      expect(await failure(() => reader.open())).toMatchObject({ kind: 'noResponse', step: 'open' });
      expect(await failure(() => makeReader(type).requestCard())).toMatchObject({ kind: 'noResponse' });
    } finally {
      await control.setServices({ running: true });
    }
    await control.placeCard();
    expect(await reader.requestCard()).toMatch(/^[0-9A-F]{8}$/);
  });

  it('captures a fingerprint, or says there is no finger', async () => {
    expect(await failure(() => reader.captureFingerprint())).toMatchObject({ kind: 'fingerNone', step: 'finger', code: type === 2 ? 0x08 : 8 });
    await control.finger({ placed: true, id: 'front-desk-test', quality: 88 });
    const capture = await reader.captureFingerprint();
    expect(capture.quality).toBe(88);
    expect(Buffer.from(capture.template, 'base64')).toHaveLength(32);
    await control.finger({ module: false });
    expect(await failure(() => reader.captureFingerprint())).toMatchObject({ kind: 'fingerUnavailable' });
  });

  it('drives the card dispenser: status, a card dispensed onto the reader, captured into the bin, empty', async () => {
    await control.dispenser({ stock: 1 });
    expect(await reader.dispenserStatus()).toEqual({ stock: 1, capacity: 100, bin: 0, binCapacity: 30, cardAtReader: false });
    const uid = await reader.dispenseCard();
    expect(await reader.requestCard()).toBe(uid);
    expect(await failure(() => reader.dispenseCard())).toMatchObject({ kind: 'dispenserBusy' });
    await reader.captureCard();
    expect(await reader.dispenserStatus()).toEqual({ stock: 0, capacity: 100, bin: 1, binCapacity: 30, cardAtReader: false });
    expect(await failure(() => reader.dispenseCard())).toMatchObject({ kind: 'dispenserEmpty' });
    await control.dispenser({ present: false });
    expect(await failure(() => reader.dispenserStatus())).toMatchObject({ kind: 'dispenserUnavailable' });
  });
});

describe('a reader that answers too late', () => {
  beforeEach(() => control.reset());
  afterEach(() => control.setLatency(0));

  it.each([1, 3] as const)('type %i: a call past its timeout is "no response"', async (type) => {
    const reader = makeReader(type, { timeoutMs: 150 });
    try {
      await reader.open();
      await control.setLatency(400);
      expect(await failure(() => reader.requestCard())).toMatchObject({ kind: 'noResponse', step: 'request' });
    } finally {
      await control.setLatency(0);
      await reader.close();
    }
  });
});
