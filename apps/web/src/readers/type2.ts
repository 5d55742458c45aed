import { BaseReader, NotOpenSignal } from './base';
import { DEFAULT_READER_URLS, READER_PID, READER_VID } from './constants';
import { ReaderError, STEP_FAILURE, deviceFailure, readerMessage, type ReaderErrorKind, type ReaderStep } from './errors';
import { bytesToBase64, bytesToHex, callService, hexToBytes } from './transport';
import type { DispenserStatus, FingerprintCapture, KeyType, ReaderInfo, ReaderOptions } from './types';
import { checkDevice } from './validate';

/**
 * Reader type 2: the USB bridge on 127.0.0.1:8765 (docs/readers.md, "Type 2"). `/open` with the
 * encoder's vid and pid, then `/write` with one command frame in hex; the bridge answers the
 * device's answer frame. Frames: `02 LEN CMD DATA BCC 03` out, `02 LEN CMD STATUS DATA BCC 03`
 * back, BCC the XOR of LEN..DATA (apps/reader-sim/src/frame.ts is the same layout).
 */

const CMD = { BEEP: 0x02, REQUEST: 0x10, AUTH: 0x11, READ: 0x12, WRITE: 0x13, FINGER: 0x20, DISPENSER_STATUS: 0x30, DISPENSE: 0x31, CAPTURE: 0x32 } as const;
const KEY_TYPE_BYTE: Record<KeyType, number> = { A: 0x60, B: 0x61 };

/** The device's statuses the console names (others: the step's own failure text with the code). */
const STATUS_KIND: Record<number, ReaderErrorKind> = {
  0x01: 'noCard',
  0x02: 'authFailed',
  0x08: 'fingerNone',
  0x09: 'fingerUnavailable',
  0x0a: 'dispenserEmpty',
  0x0b: 'dispenserBusy',
  0x0c: 'noCard',
  0x0d: 'dispenserUnavailable',
};

/** The bridge's own errnos. */
const ERRNO = { BAD_PARAMETER: 1, DEVICE_NOT_FOUND: 2, NOT_OPEN: 3, TIMEOUT: 4, DEVICE_GONE: 5 } as const;

const xor = (bytes: Uint8Array) => bytes.reduce((a, b) => a ^ b, 0);

export function encodeFrame(cmd: number, data: readonly number[] = []): string {
  const body = Uint8Array.from([data.length + 1, cmd, ...data]);
  return bytesToHex(Uint8Array.from([0x02, ...body, xor(body), 0x03]));
}

/** The STATUS and DATA of an answer frame to `cmd`, or null when it is not one. */
export function decodeAnswer(hex: string, cmd: number): { status: number; data: Uint8Array } | null {
  if (!/^([0-9A-Fa-f]{2})+$/.test(hex)) return null;
  const frame = hexToBytes(hex);
  if (frame.length < 6 || frame[0] !== 0x02 || frame[frame.length - 1] !== 0x03) return null;
  const len = frame[1]!;
  if (len < 2 || frame.length !== len + 4) return null;
  const body = frame.subarray(1, frame.length - 2);
  if (xor(body) !== frame[frame.length - 2] || frame[2] !== cmd) return null;
  return { status: frame[3]!, data: frame.slice(4, frame.length - 2) };
}

export class Type2Reader extends BaseReader {
  readonly type = 2 as const;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ReaderOptions = {}) {
    super(options);
    this.baseUrl = (options.baseUrl ?? DEFAULT_READER_URLS[2]).replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
  }

  private async bridge(path: string, params: Record<string, string | number>, step: ReaderStep, timeoutMs: number) {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const answer = await callService(this.fetchImpl, `${this.baseUrl}${path}?${query}`, { method: 'GET' }, step, timeoutMs);
    if (answer.ok === true) return answer;
    if (answer.ok !== false) throw new ReaderError('startFailed', { step, detail: 'the answer has no ok' });
    const errno = typeof answer.errno === 'number' ? answer.errno : -1;
    const message = typeof answer.error === 'string' ? answer.error : undefined;
    if (errno === ERRNO.NOT_OPEN) throw new NotOpenSignal(errno, message ?? 'device not open');
    if (errno === ERRNO.DEVICE_NOT_FOUND) throw new ReaderError('deviceNotFound', { step, hint: 'checkConnection', detail: message });
    if (errno === ERRNO.DEVICE_GONE) throw new NotOpenSignal(errno, message ?? 'device gone');
    if (errno === ERRNO.TIMEOUT) throw deviceFailure(step, errno, undefined, message);
    throw readerMessage(step, message);
  }

  /** One command frame through `/write`; answers the answer's DATA on status 0. */
  private async command(cmd: number, data: readonly number[], step: ReaderStep, timeoutMs = this.timeoutMs): Promise<Uint8Array> {
    // The bridge waits for the device a little less than the driver waits for the bridge.
    const answer = await this.bridge('/write', { data: encodeFrame(cmd, data), timeout: Math.max(100, timeoutMs - 500), readlength: 64 }, step, timeoutMs);
    const frame = typeof answer.data === 'string' ? decodeAnswer(answer.data, cmd) : null;
    if (!frame) throw new ReaderError(STEP_FAILURE[step], { step, detail: 'the device answered a malformed frame' });
    if (frame.status !== 0) throw deviceFailure(step, frame.status, STATUS_KIND[frame.status]);
    return frame.data;
  }

  protected async doOpen(): Promise<ReaderInfo> {
    try {
      const answer = await this.bridge('/open', { vid: READER_VID, pid: READER_PID }, 'open', this.timeoutMs);
      const data = (answer.data ?? {}) as Record<string, unknown>;
      const deviceId = checkDevice(data.device_id);
      return { type: 2, deviceId, serial: typeof data.serial === 'string' ? data.serial : '', simulated: deviceId.toUpperCase().startsWith('SIM') };
    } catch (error) {
      if (error instanceof NotOpenSignal) throw deviceFailure('open', error.code, 'openFailed', error.message);
      throw error;
    }
  }

  protected async doRequest(): Promise<string> {
    const data = await this.command(CMD.REQUEST, [], 'request');
    const length = data[0] ?? 0;
    if (!(length === 4 || length === 7 || length === 10) || data.length < 1 + length)
      throw new ReaderError('uidFailed', { step: 'request', hint: 'checkCard', detail: 'no UID in the answer' });
    return bytesToHex(data.subarray(1, 1 + length));
  }

  private async authenticate(block: number, key: string, keyType: KeyType, step: ReaderStep) {
    await this.command(CMD.AUTH, [KEY_TYPE_BYTE[keyType], block, ...hexToBytes(key)], step);
  }

  protected async doRead(_info: ReaderInfo, block: number, key: string, keyType: KeyType): Promise<string> {
    await this.authenticate(block, key, keyType, 'read');
    const data = await this.command(CMD.READ, [block], 'read');
    if (data.length !== 16) throw new ReaderError('readFailed', { step: 'read', hint: 'checkCard', detail: `expected 16 bytes, got ${data.length}` });
    return bytesToHex(data);
  }

  protected async doWrite(_info: ReaderInfo, block: number, data: string, key: string, keyType: KeyType): Promise<void> {
    await this.authenticate(block, key, keyType, 'write');
    await this.command(CMD.WRITE, [block, ...hexToBytes(data)], 'write', this.writeTimeoutMs);
  }

  protected async doBeep(_info: ReaderInfo, ms: number): Promise<void> {
    await this.command(CMD.BEEP, [Math.min(255, Math.ceil(ms / 10))], 'beep');
  }

  protected async doFinger(): Promise<FingerprintCapture> {
    const data = await this.command(CMD.FINGER, [], 'finger');
    if (data.length < 2) throw new ReaderError('fingerFailed', { step: 'finger', detail: 'no template in the answer' });
    return { quality: data[0]!, template: bytesToBase64(data.subarray(1)) };
  }

  protected async doDispenserStatus(): Promise<DispenserStatus> {
    const d = await this.command(CMD.DISPENSER_STATUS, [], 'dispenser');
    if (d.length < 9) throw new ReaderError('dispenserFailed', { step: 'dispenser', detail: 'short status' });
    const u16 = (at: number) => (d[at]! << 8) | d[at + 1]!;
    return { stock: u16(0), capacity: u16(2), bin: u16(4), binCapacity: u16(6), cardAtReader: (d[8]! & 1) === 1 };
  }

  protected async doDispense(): Promise<string> {
    const data = await this.command(CMD.DISPENSE, [], 'dispenser');
    const length = data[0] ?? 0;
    if (length < 4 || data.length < 1 + length) throw new ReaderError('dispenserFailed', { step: 'dispenser', detail: 'no UID in the answer' });
    return bytesToHex(data.subarray(1, 1 + length));
  }

  protected async doCapture(): Promise<void> {
    await this.command(CMD.CAPTURE, [], 'dispenser');
  }

  protected async doClose(wasOpen: boolean): Promise<void> {
    if (wasOpen) await this.bridge('/close', {}, 'close', this.timeoutMs);
  }
}
