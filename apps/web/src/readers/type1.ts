import { BaseReader, NotOpenSignal } from './base';
import { DEFAULT_READER_URLS } from './constants';
import { ReaderError, deviceFailure, readerMessage, type ReaderErrorKind, type ReaderStep } from './errors';
import { callService } from './transport';
import type { DispenserStatus, FingerprintCapture, KeyType, ReaderInfo, ReaderOptions } from './types';
import { checkDevice, normaliseUid } from './validate';

/**
 * Reader type 1: the HTTP service on 127.0.0.1:13570 (docs/readers.md, "Type 1"). Each call is a
 * form-encoded `POST /` with `func`, `cbdata` and parameters; the answer is `{ code, retval, func,
 * msg, cbdata, data: { device_id, snr, ... } }`: `code` 0, the service's message; a non-zero
 * `retval`, the device's failure with its code.
 */

/** The device's `retval`s the console names (others: the step's own failure text with the code). */
const RETVAL_KIND: Record<number, ReaderErrorKind> = {
  1: 'noCard',
  2: 'authFailed',
  8: 'fingerNone',
  9: 'fingerUnavailable',
  10: 'dispenserEmpty',
  11: 'dispenserBusy',
  12: 'noCard',
  13: 'dispenserUnavailable',
  20: 'deviceNotConnected',
  22: 'deviceNotFound',
};
const RETVAL_NOT_OPEN = 21;

type Data = Record<string, unknown>;

export class Type1Reader extends BaseReader {
  readonly type = 1 as const;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private sequence = 0;

  constructor(options: ReaderOptions = {}) {
    super(options);
    this.baseUrl = (options.baseUrl ?? DEFAULT_READER_URLS[1]).replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
  }

  /** One call; answers `data` on success (`code` 1, `retval` 0). */
  private async call(func: string, params: Record<string, string | number>, step: ReaderStep, timeoutMs = this.timeoutMs): Promise<Data> {
    const cbdata = String(++this.sequence);
    const body = new URLSearchParams({ func, cbdata });
    for (const [name, value] of Object.entries(params)) body.set(name, String(value));
    const answer = await callService(this.fetchImpl, `${this.baseUrl}/`, { method: 'POST', body }, step, timeoutMs);
    const { code, retval, msg } = answer;
    if (typeof code !== 'number') throw new ReaderError('startFailed', { step, detail: 'the answer has no code' });
    const message = typeof msg === 'string' ? msg : undefined;
    if (code !== 1) throw readerMessage(step, message);
    if (typeof retval !== 'number') throw new ReaderError('startFailed', { step, detail: 'the answer has no retval' });
    if (retval === RETVAL_NOT_OPEN && step !== 'open') throw new NotOpenSignal(retval, message ?? 'device not open');
    if (retval !== 0) throw deviceFailure(step, retval, RETVAL_KIND[retval], message);
    const data = answer.data;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {};
  }

  protected async doOpen(): Promise<ReaderInfo> {
    const data = await this.call('open', {}, 'open');
    const deviceId = checkDevice(data.device_id);
    return { type: 1, deviceId, serial: typeof data.snr === 'string' ? data.snr : '', simulated: deviceId.toUpperCase().startsWith('SIM') };
  }

  protected async doRequest(info: ReaderInfo): Promise<string> {
    const data = await this.call('card_request', { device_id: info.deviceId }, 'request');
    const uid = normaliseUid(data.snr);
    if (!uid) throw new ReaderError('uidFailed', { step: 'request', hint: 'checkCard', detail: `not a card number: ${String(data.snr)}` });
    return uid;
  }

  protected async doRead(info: ReaderInfo, block: number, key: string, keyType: KeyType): Promise<string> {
    const data = await this.call('card_read', { device_id: info.deviceId, block, key, key_type: keyType }, 'read');
    if (typeof data.data !== 'string' || !/^[0-9A-Fa-f]{32}$/.test(data.data))
      throw new ReaderError('readFailed', { step: 'read', hint: 'checkCard', detail: 'no block data in the answer' });
    return data.data.toUpperCase();
  }

  protected async doWrite(info: ReaderInfo, block: number, data: string, key: string, keyType: KeyType): Promise<void> {
    await this.call('card_write', { device_id: info.deviceId, block, data, key, key_type: keyType }, 'write', this.writeTimeoutMs);
  }

  protected async doBeep(info: ReaderInfo, ms: number): Promise<void> {
    await this.call('beep', { device_id: info.deviceId, ms }, 'beep');
  }

  protected async doFinger(info: ReaderInfo): Promise<FingerprintCapture> {
    const data = await this.call('finger_capture', { device_id: info.deviceId }, 'finger');
    if (typeof data.template !== 'string' || typeof data.quality !== 'number')
      throw new ReaderError('fingerFailed', { step: 'finger', detail: 'no template in the answer' });
    return { template: data.template, quality: data.quality };
  }

  protected async doDispenserStatus(info: ReaderInfo): Promise<DispenserStatus> {
    const d = await this.call('dispenser_status', { device_id: info.deviceId }, 'dispenser');
    const n = (v: unknown) => (typeof v === 'number' ? v : 0);
    return { stock: n(d.stock), capacity: n(d.capacity), bin: n(d.bin), binCapacity: n(d.bin_capacity), cardAtReader: d.card_at_reader === true };
  }

  protected async doDispense(info: ReaderInfo): Promise<string> {
    const data = await this.call('dispenser_dispense', { device_id: info.deviceId }, 'dispenser');
    const uid = normaliseUid(data.snr);
    if (!uid) throw new ReaderError('dispenserFailed', { step: 'dispenser', detail: 'no card number in the answer' });
    return uid;
  }

  protected async doCapture(info: ReaderInfo): Promise<void> {
    await this.call('dispenser_capture', { device_id: info.deviceId }, 'dispenser');
  }

  protected async doClose(wasOpen: boolean): Promise<void> {
    if (wasOpen) await this.call('close', {}, 'close');
  }
}
