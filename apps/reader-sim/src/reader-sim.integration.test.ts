import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReaderSimControl } from './control-client';
import { KEY_A, KEY_B, TYPE2_CMD, TYPE2_STATUS, encodeCommand } from './frame';
import { BLANK_TRAILER, FACTORY_KEY, encodeAccessBits } from './mifare';
import { FREE_PORTS, startReaderSim, type ReaderSim } from './server';
import { connectionFails, type3Client, type1Client, type2Client } from './test-helpers';
import { TYPE1_RETVAL } from './type1';
import { TYPE2_ERRNO } from './type2';
import { TYPE3_CODE } from './type3';

const HOTEL_KEY = 'A1B2C3D4E5F6';
const ZEROS = '0'.repeat(32);
const DATA = '0123456789ABCDEF0123456789ABCDEF';
/** A hotel's trailer: its key A, the transport access bits, key B. */
const hotelTrailer = (keyA = HOTEL_KEY, keyB = 'B0B1B2B3B4B5') => `${keyA}FF078069${keyB}`;

let sim: ReaderSim;
let control: ReaderSimControl;

beforeAll(async () => {
  sim = await startReaderSim({ ports: FREE_PORTS });
  control = new ReaderSimControl(sim.controlUrl);
});
afterAll(() => sim.close());
beforeEach(() => control.reset());

describe('reader simulator: ports, labels, CORS and Private Network Access', () => {
  it('reports where each service is bound (port 0: free ports) and labels everything as simulated', async () => {
    const ports = Object.values(sim.ports);
    expect(ports.every((p) => p > 0)).toBe(true);
    expect(new Set(ports).size).toBe(4);
    expect(sim.urls.type3).toBe(`ws://127.0.0.1:${sim.ports.type3}`);
    const overview = await control.overview();
    expect(overview).toMatchObject({ simulated: true, ports: sim.ports });
    expect(overview.device.deviceId).toMatch(/^SIM-0417-8020-/);
    expect(overview.device.serial).toMatch(/^SIM\d{8}$/);
    const info = await fetch(`${sim.urls.type1}/`);
    expect(info.headers.get('x-simulated')).toBe('true');
    const answer = await type1Client(sim.urls.type1)('open');
    expect(answer).toMatchObject({ code: 1, retval: 0, simulated: true, data: { device_id: overview.device.deviceId, snr: overview.device.serial } });
  });

  it.each(['type1', 'type2', 'type3', 'control'] as const)('%s answers CORS and Private Network Access preflights', async (service) => {
    const url = service === 'type3' ? `http://127.0.0.1:${sim.ports.type3}/` : `${sim.urls[service]}/`;
    const origin = 'https://console.example.com';
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(preflight.headers.get('access-control-allow-methods')).toContain(service === 'type3' ? 'GET' : 'POST');

    // Without the PNA request header, no PNA answer.
    const plain = await fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(plain.headers.get('access-control-allow-private-network')).toBeNull();
    if (service !== 'type3') {
      const get = await fetch(url, { headers: { origin } });
      expect(get.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });
});

describe('reader type 1 (HTTP, func + cbdata)', () => {
  const call = () => type1Client(sim.urls.type1);

  it('opens the device, requests the card, reads and writes blocks with the right key and refuses the wrong one', async () => {
    const t1 = call();
    const opened = await t1('open');
    expect(opened).toMatchObject({ code: 1, retval: 0, func: 'open', cbdata: 'cb-open', msg: 'ok' });
    const device_id = opened.data.device_id as string;

    expect(await t1('card_request', { device_id })).toMatchObject({ code: 1, retval: TYPE1_RETVAL.NO_CARD });
    const card = await control.placeCard('04A1B2C3');
    expect(card).toMatchObject({ uid: '04A1B2C3', onReader: true });
    expect(await t1('card_request', { device_id })).toMatchObject({ code: 1, retval: 0, data: { device_id, snr: '04A1B2C3', sak: '08', atqa: '0400' } });

    // Block 0 holds the UID (and BCC); the blank card reads with the factory key.
    expect(await t1('card_read', { device_id, block: 0, key: FACTORY_KEY })).toMatchObject({ retval: 0, data: { data: expect.stringMatching(/^04A1B2C3/) } });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ retval: 0, data: { block: 4, data: ZEROS } });
    expect(await t1('card_read', { device_id, block: 4, key: HOTEL_KEY })).toMatchObject({ code: 1, retval: TYPE1_RETVAL.AUTH_FAILED });

    expect(await t1('card_write', { device_id, block: 4, key: FACTORY_KEY, data: DATA })).toMatchObject({ retval: 0 });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ data: { data: DATA } });
    // Separate authentication, then a read without a key; another sector is not authenticated.
    expect(await t1('card_auth', { device_id, block: 5, key: FACTORY_KEY, key_type: 'A' })).toMatchObject({ retval: 0 });
    expect(await t1('card_read', { device_id, block: 4 })).toMatchObject({ retval: 0, data: { data: DATA } });
    expect(await t1('card_read', { device_id, block: 8 })).toMatchObject({ retval: TYPE1_RETVAL.NOT_AUTHENTICATED });
    // Block 0 is read-only.
    expect(await t1('card_write', { device_id, block: 0, key: FACTORY_KEY, data: DATA })).toMatchObject({ retval: TYPE1_RETVAL.ACCESS_DENIED });
    expect((await control.card()).blocks[4]).toBe(DATA);
  });

  it('a trailer write changes the sector keys: the factory key then fails, the new key works, and key A reads as zeros', async () => {
    const t1 = call();
    const device_id = (await t1('open')).data.device_id as string;
    await control.placeCard();
    expect(await t1('card_write', { device_id, block: 7, key: FACTORY_KEY, data: hotelTrailer() })).toMatchObject({ retval: 0 });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ retval: TYPE1_RETVAL.AUTH_FAILED });
    expect(await t1('card_write', { device_id, block: 5, key: FACTORY_KEY, data: DATA })).toMatchObject({ retval: TYPE1_RETVAL.AUTH_FAILED });
    expect(await t1('card_write', { device_id, block: 5, key: HOTEL_KEY, data: DATA })).toMatchObject({ retval: 0 });
    expect(await t1('card_read', { device_id, block: 5, key: HOTEL_KEY })).toMatchObject({ data: { data: DATA } });
    // Key A never reads back; with the transport access bits key B does (so it is no key).
    expect(await t1('card_read', { device_id, block: 7, key: HOTEL_KEY })).toMatchObject({ data: { data: `000000000000FF078069B0B1B2B3B4B5` } });
    expect(await t1('card_read', { device_id, block: 5, key: 'B0B1B2B3B4B5', key_type: 'B' })).toMatchObject({ retval: TYPE1_RETVAL.ACCESS_DENIED });
    // Other sectors keep the factory key.
    expect(await t1('card_read', { device_id, block: 8, key: FACTORY_KEY })).toMatchObject({ retval: 0 });
    const dump = await control.card();
    expect(dump.sectors[1]).toMatchObject({ keyA: HOTEL_KEY, keyB: 'B0B1B2B3B4B5', accessBits: 'FF078069' });
    expect(dump.sectors[2]!.keyA).toBe(FACTORY_KEY);
  });

  it('follows the access bits: key B only, read-only blocks, and refuses inconsistent access bits', async () => {
    const t1 = call();
    const device_id = (await t1('open')).data.device_id as string;
    await control.placeCard();
    // Data blocks: read A|B, write B only (100, 110); trailer 011 (keys and access bits written with key B, key B secret).
    const bits = encodeAccessBits(['100', '100', '110', '011']).toString('hex').toUpperCase();
    const keyB = 'CAFE12345678';
    expect(await t1('card_write', { device_id, block: 11, key: FACTORY_KEY, data: `${HOTEL_KEY}${bits}69${keyB}` })).toMatchObject({ retval: 0 });
    expect(await t1('card_write', { device_id, block: 8, key: HOTEL_KEY, data: DATA })).toMatchObject({ retval: TYPE1_RETVAL.ACCESS_DENIED });
    expect(await t1('card_write', { device_id, block: 8, key: FACTORY_KEY, key_type: 'B', data: DATA })).toMatchObject({ retval: TYPE1_RETVAL.AUTH_FAILED });
    expect(await t1('card_write', { device_id, block: 8, key: keyB, key_type: 'B', data: DATA })).toMatchObject({ retval: 0 });
    expect(await t1('card_read', { device_id, block: 8, key: HOTEL_KEY })).toMatchObject({ data: { data: DATA } });
    // Key B is secret now: it reads as zeros; key A may no longer change key A.
    expect(await t1('card_read', { device_id, block: 11, key: HOTEL_KEY })).toMatchObject({ data: { data: `000000000000${bits}69000000000000` } });
    expect(await t1('card_write', { device_id, block: 11, key: HOTEL_KEY, data: `${FACTORY_KEY}${bits}69${keyB}` })).toMatchObject({
      retval: TYPE1_RETVAL.ACCESS_DENIED,
    });
    // Access bits whose inverted copies do not match are refused (a real card would lock the sector).
    expect(await t1('card_write', { device_id, block: 15, key: FACTORY_KEY, data: `${FACTORY_KEY}FF078169${FACTORY_KEY}` })).toMatchObject({
      retval: TYPE1_RETVAL.BAD_ACCESS_BITS,
    });
    expect((await control.card()).sectors[3]!.accessBits).toBe('FF078069');
  });

  it('checks its parameters (code 0 with a message), echoes cbdata, and names the device', async () => {
    const t1 = call();
    const device_id = (await t1('open')).data.device_id as string;
    await control.placeCard();
    expect(await t1('card_read', { device_id, block: 4, key: 'FFFF' })).toMatchObject({
      code: 0,
      msg: 'key must be 12 hex characters',
      cbdata: 'cb-card_read',
    });
    expect(await t1('card_write', { device_id, block: 4, key: FACTORY_KEY, data: 'ABCD' })).toMatchObject({ code: 0, msg: 'data must be 32 hex characters' });
    expect(await t1('card_read', { device_id, key: FACTORY_KEY })).toMatchObject({ code: 0, msg: 'block is required' });
    expect(await t1('card_read', { device_id, block: 64, key: FACTORY_KEY })).toMatchObject({ code: 0, msg: 'block must be a block number from 0 to 63' });
    expect(await t1('card_request')).toMatchObject({ code: 0, msg: 'device_id is required' });
    expect(await t1('card_request', { device_id: 'SIM-OTHER' })).toMatchObject({ code: 1, retval: TYPE1_RETVAL.DEVICE_NOT_FOUND });
    expect(await t1('no_such_func')).toMatchObject({ code: 0, msg: 'unknown func: no_such_func' });
    // JSON bodies work too.
    const json = await fetch(`${sim.urls.type1}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ func: 'card_request', cbdata: { n: 7 }, device_id }),
    });
    expect(await json.json()).toMatchObject({ code: 1, retval: 0, cbdata: { n: 7 } });
    const broken = await fetch(`${sim.urls.type1}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(await broken.json()).toMatchObject({ code: 0 });
  });

  it('unplugged: "device not connected" on every call; plugged back: open again first', async () => {
    const t1 = call();
    const device_id = (await t1('open')).data.device_id as string;
    await control.placeCard();
    await control.setConnected(false);
    expect(await t1('open')).toMatchObject({ code: 1, retval: TYPE1_RETVAL.DEVICE_NOT_CONNECTED, msg: 'device not connected or not on' });
    expect(await t1('card_request', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.DEVICE_NOT_CONNECTED });
    await control.setConnected(true);
    expect(await t1('card_request', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.DEVICE_NOT_OPEN });
    await t1('open');
    expect(await t1('card_request', { device_id })).toMatchObject({ retval: 0 });
  });

  it('beeps, captures a fingerprint (or says there is no finger), and drives the dispenser', async () => {
    const t1 = call();
    const device_id = (await t1('open')).data.device_id as string;
    expect(await t1('beep', { device_id, ms: 200 })).toMatchObject({ retval: 0 });
    expect((await control.overview()).beeps).toEqual({ count: 1, lastMs: 200 });

    expect(await t1('finger_capture', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.NO_FINGER });
    await control.finger({ placed: true, id: 'guest-7', quality: 91 });
    const first = await t1('finger_capture', { device_id });
    expect(first).toMatchObject({ retval: 0, data: { quality: 91, format: 'SIM-FP1' } });
    expect(Buffer.from(first.data.template as string, 'base64')).toHaveLength(32);
    expect((await t1('finger_capture', { device_id })).data.template).toBe(first.data.template);
    await control.finger({ id: 'guest-8' });
    expect((await t1('finger_capture', { device_id })).data.template).not.toBe(first.data.template);
    await control.finger({ module: false });
    expect(await t1('finger_capture', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.NO_FINGER_MODULE });

    await control.dispenser({ stock: 1 });
    expect(await t1('dispenser_status', { device_id })).toMatchObject({ retval: 0, data: { stock: 1, card_at_reader: false, bin: 0 } });
    const dispensed = await t1('dispenser_dispense', { device_id });
    expect(dispensed).toMatchObject({ retval: 0, data: { stock: 0, snr: expect.stringMatching(/^[0-9A-F]{8}$/) } });
    expect(await t1('card_request', { device_id })).toMatchObject({ data: { snr: dispensed.data.snr } });
    expect((await control.card()).origin).toBe('dispenser');
    expect(await t1('dispenser_dispense', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.CARD_AT_READER });
    expect(await t1('dispenser_capture', { device_id })).toMatchObject({ retval: 0, data: { bin: 1, snr: dispensed.data.snr } });
    expect(await t1('card_request', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.NO_CARD });
    expect(await t1('dispenser_capture', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.NO_CARD_AT_READER });
    expect(await t1('dispenser_dispense', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.DISPENSER_EMPTY });
    expect((await control.card(dispensed.data.snr as string)).location).toBe('bin');
    await control.dispenser({ present: false });
    expect(await t1('dispenser_status', { device_id })).toMatchObject({ retval: TYPE1_RETVAL.NO_DISPENSER });
  });

  it('failure injection: the next write fails (block unchanged), or is corrupted (reported written, reads back different)', async () => {
    const t1 = call();
    const device_id = (await t1('open')).data.device_id as string;
    await control.placeCard();
    await control.failNext('write');
    expect(await t1('card_write', { device_id, block: 4, key: FACTORY_KEY, data: DATA })).toMatchObject({ retval: TYPE1_RETVAL.WRITE_FAILED });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ data: { data: ZEROS } });
    await control.failNext('write', 'corrupt');
    expect(await t1('card_write', { device_id, block: 4, key: FACTORY_KEY, data: DATA })).toMatchObject({ retval: 0 });
    const readBack = (await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).data.data;
    expect(readBack).not.toBe(DATA);
    expect(readBack).toMatch(/^0123456789ABCDEF0123456789ABCD/);
    // Only the next one.
    expect(await t1('card_write', { device_id, block: 4, key: FACTORY_KEY, data: DATA })).toMatchObject({ retval: 0 });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ data: { data: DATA } });
    await control.failNext('read', 'fail', 2);
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ retval: TYPE1_RETVAL.READ_FAILED });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ retval: TYPE1_RETVAL.READ_FAILED });
    expect(await t1('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ retval: 0 });
  });

  it('the reader software stopped: the connection is refused; started again: it answers', async () => {
    await control.setServices({ type1: false });
    await expect(call()('open')).rejects.toThrow();
    await control.setServices({ type1: true });
    expect(await call()('open')).toMatchObject({ code: 1, retval: 0 });
  });
});

describe('reader type 2 (USB bridge, frames through /write)', () => {
  const client = () => type2Client(sim.urls.type2);

  it('opens by vid and pid, requests the card, authenticates, reads and writes; a wrong key fails', async () => {
    const t2 = client();
    await t2.close();
    expect(await t2.raw(encodeCommand(TYPE2_CMD.REQUEST).toString('hex'))).toMatchObject({ ok: false, errno: TYPE2_ERRNO.NOT_OPEN });
    expect(await t2.open(1047, 1)).toMatchObject({ ok: false, errno: TYPE2_ERRNO.DEVICE_NOT_FOUND });
    const opened = await t2.open();
    expect(opened).toMatchObject({
      ok: true,
      data: { vid: 1047, pid: 32800, device_id: expect.stringMatching(/^SIM-/), serial: expect.stringMatching(/^SIM/) },
    });

    expect(await t2.command(TYPE2_CMD.REQUEST)).toMatchObject({ cmd: TYPE2_CMD.REQUEST, status: TYPE2_STATUS.NO_CARD });
    await control.placeCard('11223344');
    const request = await t2.command(TYPE2_CMD.REQUEST);
    expect(request.status).toBe(0);
    expect(request.data!.toString('hex').toUpperCase()).toBe('04112233440400' + '08');

    const key = [...Buffer.from(FACTORY_KEY, 'hex')];
    expect((await t2.command(TYPE2_CMD.AUTH, [KEY_A, 4, ...key])).status).toBe(0);
    expect((await t2.command(TYPE2_CMD.WRITE, [4, ...Buffer.from(DATA, 'hex')])).status).toBe(0);
    const read = await t2.command(TYPE2_CMD.READ, [4]);
    expect(read.data!.toString('hex').toUpperCase()).toBe(DATA);
    // Another sector is not authenticated.
    expect((await t2.command(TYPE2_CMD.READ, [8])).status).toBe(TYPE2_STATUS.NOT_AUTHENTICATED);

    // New keys in sector 1; the factory key fails and leaves the sector unauthenticated.
    expect((await t2.command(TYPE2_CMD.WRITE, [7, ...Buffer.from(hotelTrailer(), 'hex')])).status).toBe(0);
    expect((await t2.command(TYPE2_CMD.AUTH, [KEY_A, 4, ...key])).status).toBe(TYPE2_STATUS.AUTH_FAILED);
    expect((await t2.command(TYPE2_CMD.READ, [4])).status).toBe(TYPE2_STATUS.NOT_AUTHENTICATED);
    expect((await t2.command(TYPE2_CMD.AUTH, [KEY_A, 4, ...Buffer.from(HOTEL_KEY, 'hex')])).status).toBe(0);
    expect((await t2.command(TYPE2_CMD.READ, [4])).data!.toString('hex').toUpperCase()).toBe(DATA);
    expect((await t2.command(TYPE2_CMD.AUTH, [KEY_B, 4, ...Buffer.from('B0B1B2B3B4B5', 'hex')])).status).toBe(0);
    expect((await t2.command(TYPE2_CMD.READ, [4])).status).toBe(TYPE2_STATUS.ACCESS_DENIED);
  });

  it('refuses bad frames and unknown commands, truncates to readlength, and times out a slow device', async () => {
    const t2 = client();
    await t2.open();
    const good = encodeCommand(TYPE2_CMD.INFO);
    const badBcc = Buffer.from(good);
    badBcc[badBcc.length - 2] = badBcc[badBcc.length - 2]! ^ 0xff;
    const bad = await t2.raw(badBcc.toString('hex'));
    expect(bad.ok).toBe(true);
    expect(Buffer.from(bad.data as string, 'hex')[3]).toBe(TYPE2_STATUS.BAD_FRAME);
    expect((await t2.command(0x7f)).status).toBe(TYPE2_STATUS.UNKNOWN_COMMAND);
    expect((await t2.command(TYPE2_CMD.READ, [99])).status).toBe(TYPE2_STATUS.BAD_PARAMETER);
    expect(await t2.raw('XYZ')).toMatchObject({ ok: false, errno: TYPE2_ERRNO.BAD_PARAMETER });
    const info = await t2.raw(good.toString('hex'), 1000, 64);
    const serial = Buffer.from(info.data as string, 'hex')
      .subarray(4, -2)
      .toString('ascii');
    expect(serial).toBe((await control.overview()).device.serial);
    expect(await t2.raw(good.toString('hex'), 1000, 5)).toMatchObject({ ok: true, length: 5 });

    await control.setLatency(300);
    try {
      expect(await t2.raw(good.toString('hex'), 50)).toMatchObject({ ok: false, errno: TYPE2_ERRNO.TIMEOUT });
      expect(await t2.raw(good.toString('hex'), 1000)).toMatchObject({ ok: true });
    } finally {
      await control.setLatency(0);
    }
  });

  it('unplugged: /write says the device is gone and /open finds no device; plugged back: /open works again', async () => {
    const t2 = client();
    await t2.open();
    await control.setConnected(false);
    expect(await t2.command(TYPE2_CMD.REQUEST)).toMatchObject({ bridge: { ok: false, errno: TYPE2_ERRNO.DEVICE_GONE } });
    expect(await t2.open()).toMatchObject({ ok: false, errno: TYPE2_ERRNO.DEVICE_NOT_FOUND });
    await control.setConnected(true);
    expect(await t2.command(TYPE2_CMD.REQUEST)).toMatchObject({ bridge: { errno: TYPE2_ERRNO.DEVICE_GONE } });
    await t2.open();
    expect((await t2.command(TYPE2_CMD.REQUEST)).status).toBe(TYPE2_STATUS.NO_CARD);
  });

  it('beeps, captures fingerprints and drives the dispenser', async () => {
    const t2 = client();
    await t2.open();
    expect((await t2.command(TYPE2_CMD.BEEP, [15])).status).toBe(0);
    expect((await control.overview()).beeps).toEqual({ count: 1, lastMs: 150 });
    expect((await t2.command(TYPE2_CMD.FINGER_CAPTURE)).status).toBe(TYPE2_STATUS.NO_FINGER);
    await control.finger({ placed: true, quality: 77 });
    const finger = await t2.command(TYPE2_CMD.FINGER_CAPTURE);
    expect(finger.status).toBe(0);
    expect(finger.data![0]).toBe(77);
    expect(finger.data!.length).toBe(33);

    await control.dispenser({ stock: 3, bin: 2 });
    const status = await t2.command(TYPE2_CMD.DISPENSER_STATUS);
    expect([...status.data!]).toEqual([0, 3, 0, 100, 0, 2, 0, 30, 0]);
    const dispensed = await t2.command(TYPE2_CMD.DISPENSE);
    expect(dispensed.status).toBe(0);
    const uid = dispensed
      .data!.subarray(1, 1 + dispensed.data![0]!)
      .toString('hex')
      .toUpperCase();
    expect((await control.overview()).card).toBe(uid);
    expect((await t2.command(TYPE2_CMD.DISPENSE)).status).toBe(TYPE2_STATUS.CARD_AT_READER);
    expect((await t2.command(TYPE2_CMD.CAPTURE)).status).toBe(0);
    expect([...(await t2.command(TYPE2_CMD.DISPENSER_STATUS)).data!]).toEqual([0, 2, 0, 100, 0, 3, 0, 30, 0]);
  });
});

describe('reader type 3 (WebSocket, JSON commands and events)', () => {
  const clients: Array<{ close(): void }> = [];
  const connect = async () => {
    const c = await type3Client(sim.urls.type3);
    clients.push(c);
    return c;
  };
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });

  it('greets, opens, requests the card, reads and writes with the right key and refuses the wrong one, and pushes card events', async () => {
    const t3 = await connect();
    expect(await t3.event((m) => m.event === 'hello')).toMatchObject({ simulated: true, device: { connected: true } });
    expect(await t3.send('card.request')).toMatchObject({ ok: false, code: TYPE3_CODE.DEVICE_NOT_OPEN, error: 'DEVICE_NOT_OPEN' });
    const opened = await t3.send('device.open');
    expect(opened).toMatchObject({ ok: true, data: { deviceId: expect.stringMatching(/^SIM-/), serial: expect.stringMatching(/^SIM/), simulated: true } });
    expect(await t3.send('card.request')).toMatchObject({ ok: false, code: TYPE3_CODE.NO_CARD });

    await control.placeCard('A0A1A2A3');
    expect(await t3.event((m) => m.event === 'card' && m.present === true)).toMatchObject({ uid: 'A0A1A2A3' });
    expect(await t3.send('card.request')).toMatchObject({ ok: true, data: { uid: 'A0A1A2A3', sak: '08' } });
    expect(await t3.send('card.write', { block: 9, data: DATA, key: FACTORY_KEY })).toMatchObject({ ok: true });
    expect(await t3.send('card.read', { block: 9, key: FACTORY_KEY })).toMatchObject({ ok: true, data: { data: DATA } });
    expect(await t3.send('card.read', { block: 9, key: HOTEL_KEY })).toMatchObject({ ok: false, code: TYPE3_CODE.AUTH_FAILED });
    expect(await t3.send('card.write', { block: 11, data: hotelTrailer(), key: FACTORY_KEY })).toMatchObject({ ok: true });
    expect(await t3.send('card.read', { block: 9, key: FACTORY_KEY })).toMatchObject({ ok: false, code: TYPE3_CODE.AUTH_FAILED });
    expect(await t3.send('card.auth', { block: 9, key: HOTEL_KEY, keyType: 'A' })).toMatchObject({ ok: true });
    expect(await t3.send('card.read', { block: 10 })).toMatchObject({ ok: true, data: { data: ZEROS } });

    await control.removeCard();
    expect(await t3.event((m) => m.event === 'card' && m.present === false)).toMatchObject({ uid: null });
    expect(await t3.send('card.read', { block: 9, key: HOTEL_KEY })).toMatchObject({ ok: false, code: TYPE3_CODE.NO_CARD });
  });

  it('answers bad requests with code 100 and a message', async () => {
    const t3 = await connect();
    await t3.send('device.open');
    expect(await t3.send('card.read', { block: 1, key: 'XYZ' })).toMatchObject({
      ok: false,
      code: TYPE3_CODE.BAD_REQUEST,
      msg: 'key must be 12 hex characters',
    });
    expect(await t3.send('card.write', { block: 1, key: FACTORY_KEY, data: '00' })).toMatchObject({
      ok: false,
      code: TYPE3_CODE.BAD_REQUEST,
      msg: 'data must be 32 hex characters',
    });
    expect(await t3.send('nothing')).toMatchObject({ ok: false, code: TYPE3_CODE.BAD_REQUEST, msg: 'unknown cmd: nothing' });
    expect(await t3.sendRaw('not json')).toMatchObject({ ok: false, code: TYPE3_CODE.BAD_REQUEST });
  });

  it('unplugged: an event, then every command refused; plugged back: open again', async () => {
    const t3 = await connect();
    await t3.send('device.open');
    await control.placeCard();
    await control.setConnected(false);
    expect(await t3.event((m) => m.event === 'device' && m.connected === false)).toBeTruthy();
    expect(await t3.send('card.request')).toMatchObject({ ok: false, code: TYPE3_CODE.DEVICE_NOT_CONNECTED, msg: 'device not connected or not on' });
    expect(await t3.send('device.open')).toMatchObject({ ok: false, code: TYPE3_CODE.DEVICE_NOT_CONNECTED });
    await control.setConnected(true);
    expect(await t3.send('card.request')).toMatchObject({ ok: false, code: TYPE3_CODE.DEVICE_NOT_OPEN });
    await t3.send('device.open');
    expect(await t3.send('card.request')).toMatchObject({ ok: true });
  });

  it('fingerprint and dispenser', async () => {
    const t3 = await connect();
    await t3.send('device.open');
    expect(await t3.send('finger.capture')).toMatchObject({ ok: false, code: TYPE3_CODE.NO_FINGER });
    await control.finger({ placed: true, id: 'x', quality: 60 });
    expect(await t3.send('finger.capture')).toMatchObject({ ok: true, data: { quality: 60, template: expect.any(String) } });
    await control.dispenser({ stock: 0 });
    expect(await t3.send('dispenser.dispense')).toMatchObject({ ok: false, code: TYPE3_CODE.DISPENSER_EMPTY });
    await control.dispenser({ stock: 5 });
    const dispensed = await t3.send('dispenser.dispense');
    expect(dispensed).toMatchObject({ ok: true, data: { stock: 4 } });
    expect(await t3.send('card.request')).toMatchObject({ data: { uid: dispensed.data!.uid } });
    expect(await t3.send('dispenser.capture')).toMatchObject({ ok: true, data: { bin: 1 } });
    expect(await t3.send('dispenser.status')).toMatchObject({ ok: true, data: { stock: 4, bin: 1, cardAtReader: false } });
  });

  it('the service stopped: connections fail and open ones are dropped; started again: it connects', async () => {
    const t3 = await connect();
    const closed = new Promise<void>((resolve) => t3.socket.once('close', () => resolve()));
    await control.setServices({ type3: false });
    await closed;
    expect(await connectionFails(sim.urls.type3)).toBe(true);
    await control.setServices({ running: true });
    expect(await connectionFails(sim.urls.type3)).toBe(false);
  });
});

describe('reader simulator: the control API and its state file', () => {
  it('places, swaps and removes cards; the wallet remembers every card and its blocks', async () => {
    const t1 = type1Client(sim.urls.type1);
    const device_id = (await t1('open')).data.device_id as string;
    const a = await control.placeCard();
    expect(a.uid).toMatch(/^[0-9A-F]{8}$/);
    expect(a.sectors).toHaveLength(16);
    expect(a.sectors.every((s) => `${s.keyA}${s.accessBits}${s.keyB}` === BLANK_TRAILER)).toBe(true);
    await t1('card_write', { device_id, block: 1, key: FACTORY_KEY, data: DATA });
    const b = await control.placeCard('0A0B0C0D0E0F10');
    expect(b.blocks[0]).toMatch(/^0A0B0C0D0E0F10084400/);
    expect(await t1('card_request', { device_id })).toMatchObject({ data: { snr: '0A0B0C0D0E0F10' } });
    await control.placeCard(a.uid);
    expect(await t1('card_read', { device_id, block: 1, key: FACTORY_KEY })).toMatchObject({ data: { data: DATA } });
    expect(await control.removeCard()).toBe(a.uid);
    expect(await control.removeCard()).toBeNull();
    const wallet = await control.call<{ cards: Array<{ uid: string; location: string }> }>('GET', '/cards');
    expect(wallet.cards.map((c) => c.uid).sort()).toEqual([a.uid, '0A0B0C0D0E0F10'].sort());
    await expect(control.call('POST', '/card', { uid: 'XYZ' })).rejects.toThrow(/400/);
    await expect(control.card()).rejects.toThrow(/404/);
    const set = await control.setBlock(a.uid, 2, DATA);
    expect(set.blocks[2]).toBe(DATA);
    await expect(control.setBlock(a.uid, 0, DATA)).rejects.toThrow(/400/);
  });

  it('keeps the wallet, the card on the reader, the dispenser and the serial number across a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-sim-'));
    const stateFile = path.join(dir, 'state.json');
    try {
      const first = await startReaderSim({ ports: FREE_PORTS, stateFile, stateDebounceMs: 10 });
      const c1 = new ReaderSimControl(first.controlUrl);
      const card = await c1.placeCard();
      const t1 = type1Client(first.urls.type1);
      const device_id = (await t1('open')).data.device_id as string;
      await t1('card_write', { device_id, block: 7, key: FACTORY_KEY, data: hotelTrailer() });
      await t1('card_write', { device_id, block: 4, key: HOTEL_KEY, data: DATA });
      await c1.dispenser({ stock: 12 });
      const serial = (await c1.overview()).device.serial;
      await first.close();

      const second = await startReaderSim({ ports: FREE_PORTS, stateFile });
      try {
        const c2 = new ReaderSimControl(second.controlUrl);
        const overview = await c2.overview();
        expect(overview).toMatchObject({ card: card.uid, device: { serial, connected: true }, dispenser: { stock: 12 } });
        const t1b = type1Client(second.urls.type1);
        expect((await t1b('open')).data.device_id).toBe(device_id);
        expect(await t1b('card_read', { device_id, block: 4, key: HOTEL_KEY })).toMatchObject({ retval: 0, data: { data: DATA } });
        expect(await t1b('card_read', { device_id, block: 4, key: FACTORY_KEY })).toMatchObject({ retval: TYPE1_RETVAL.AUTH_FAILED });
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a free port instead of a taken one when asked, and fails otherwise', async () => {
    const taken = sim.ports.type1;
    await expect(startReaderSim({ ports: { ...FREE_PORTS, type1: taken } })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const replaced: string[] = [];
    const other = await startReaderSim({ ports: { ...FREE_PORTS, type1: taken }, portTaken: 'free', onPortTaken: (service) => replaced.push(service) });
    try {
      expect(replaced).toEqual(['type1']);
      expect(other.ports.type1).not.toBe(taken);
      expect(await type1Client(other.urls.type1)('open')).toMatchObject({ retval: 0 });
    } finally {
      await other.close();
    }
  });

  it('replaces a taken port of the type-3 (WebSocket) service too, without an unhandled error (issue 18 §1)', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const unhandled: unknown[] = [];
    const onUncaught = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(startReaderSim({ ports: { ...FREE_PORTS, type3: taken } })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const replaced: string[] = [];
      const other = await startReaderSim({ ports: { ...FREE_PORTS, type3: taken }, portTaken: 'free', onPortTaken: (service) => replaced.push(service) });
      try {
        expect(replaced).toEqual(['type3']);
        expect(other.ports.type3).not.toBe(taken);
        const ws = new WebSocket(other.urls.type3);
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
        ws.close();
      } finally {
        await other.close();
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      blocker.close();
    }
  });
});
