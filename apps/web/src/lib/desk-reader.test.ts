// @vitest-environment jsdom
import type { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeDeskReader, getDeskReader } from './desk-reader';
import { deskReaderState, storeReaderType } from './desk-reader-env';

/**
 * The desk reader every card screen gets (lib/desk-reader.ts): the type chosen on this computer,
 * at the address the server gives for the simulator (else the usual one), one reader shared
 * between screens until the type changes, and what the reader says about itself remembered.
 */

type Environment = { simulated: boolean; urls: Partial<Record<'type1' | 'type2' | 'type3', string>> };
const client = (environment: Environment | Error) =>
  ({ fetchQuery: () => (environment instanceof Error ? Promise.reject(environment) : Promise.resolve(environment)) }) as unknown as QueryClient;

/** A type 1 service answering every call for one device (`open` with its id and serial). */
function type1Service(deviceId: string) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const func = new URLSearchParams(String(init?.body)).get('func') ?? '';
    calls.push(`${String(url)} ${func}`);
    return new Response(JSON.stringify({ code: 1, retval: 0, func, msg: 'ok', cbdata: '1', data: { device_id: deviceId, snr: 'SN1' } }), {
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

afterEach(async () => {
  await closeDeskReader();
  vi.unstubAllGlobals();
  localStorage.clear();
  storeReaderType(1);
  localStorage.clear();
});

describe('getDeskReader', () => {
  it('remembers what the reader said: simulated, and its device id for later (kept across reloads)', async () => {
    type1Service('SIM-0417-8020-0077');
    expect(deskReaderState().readerSaysSimulated).toBe(false);
    const reader = await getDeskReader(client({ simulated: false, urls: {} }));
    await reader.open();
    expect(deskReaderState()).toMatchObject({ readerSaysSimulated: true, lastDeviceId: 'SIM-0417-8020-0077' });
    expect(localStorage.getItem('deskReaderDeviceId')).toBe('SIM-0417-8020-0077');
  });

  it('uses the type chosen here, at the simulator address the server gives, and shares one reader', async () => {
    storeReaderType(2);
    const reader = await getDeskReader(client({ simulated: true, urls: { type2: 'http://127.0.0.1:40002' } }));
    expect(reader.type).toBe(2);
    expect(localStorage.getItem('cardSenderType')).toBe('2');
    expect(await getDeskReader(client({ simulated: true, urls: { type2: 'http://127.0.0.1:40002' } }))).toBe(reader);

    storeReaderType(1);
    const calls = type1Service('SIM-0417-8020-0042');
    const other = await getDeskReader(client({ simulated: true, urls: { type1: 'http://127.0.0.1:40001' } }));
    expect(other).not.toBe(reader);
    expect(other.type).toBe(1);
    await other.open();
    expect(calls).toEqual(['http://127.0.0.1:40001/ open']);
  });

  it('falls back to the usual address when the server gives none or does not answer', async () => {
    const calls = type1Service('DESK-1');
    const reader = await getDeskReader(client(new Error('offline')));
    await reader.beep(50);
    expect(calls[0]).toBe('http://127.0.0.1:13570/ open');
  });
});
