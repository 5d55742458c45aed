import { BaseReader, NotOpenSignal } from './base';
import { DEFAULT_READER_URLS } from './constants';
import { ReaderError, deviceFailure, noResponse, readerMessage, type ReaderErrorKind, type ReaderStep } from './errors';
import type { DispenserStatus, FingerprintCapture, KeyType, ReaderInfo, ReaderOptions, WebSocketFactory, WebSocketLike } from './types';
import { checkDevice, normaliseUid } from './validate';

/**
 * Reader type 3: the WebSocket service on 127.0.0.1:39002 (docs/readers.md, "Type 3"). JSON
 * commands `{ id, cmd, ...parameters }`, answered `{ id, cmd, ok: true, data }` or `{ id, cmd,
 * ok: false, code, error, msg }`; events (`hello`, `card`, `device`) have no `id` and are ignored
 * here. The connection is made on first use and again after it drops.
 */

const CODE_KIND: Record<number, ReaderErrorKind> = {
  1: 'noCard',
  2: 'authFailed',
  8: 'fingerNone',
  9: 'fingerUnavailable',
  10: 'dispenserEmpty',
  11: 'dispenserBusy',
  12: 'noCard',
  13: 'dispenserUnavailable',
  20: 'deviceNotConnected',
};
const CODE_NOT_OPEN = 21;
const CODE_BAD_REQUEST = 100;
const OPEN = 1;

interface Pending {
  resolve: (data: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
  step: ReaderStep;
  timer: ReturnType<typeof setTimeout>;
}

export class Type3Reader extends BaseReader {
  readonly type = 3 as const;
  private readonly url: string;
  private readonly WebSocketImpl: WebSocketFactory | undefined;
  private socket: WebSocketLike | null = null;
  private connecting: Promise<WebSocketLike> | null = null;
  private readonly pending = new Map<number, Pending>();
  private sequence = 0;

  constructor(options: ReaderOptions = {}) {
    super(options);
    this.url = options.baseUrl ?? DEFAULT_READER_URLS[3];
    this.WebSocketImpl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketFactory }).WebSocket;
  }

  private connect(step: ReaderStep): Promise<WebSocketLike> {
    if (this.socket && this.socket.readyState === OPEN) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<WebSocketLike>((resolve, reject) => {
      const Impl = this.WebSocketImpl;
      if (!Impl) return reject(noResponse(step, new Error('this browser has no WebSocket')));
      let socket: WebSocketLike;
      try {
        socket = new Impl(this.url);
      } catch (error) {
        return reject(noResponse(step, error));
      }
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        socket.close();
        reject(noResponse(step, new Error('the WebSocket did not open in time')));
      }, this.timeoutMs);
      socket.addEventListener('open', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.socket = socket;
        resolve(socket);
      });
      socket.addEventListener('error', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(noResponse(step, new Error('the WebSocket could not connect')));
      });
      socket.addEventListener('close', () => {
        if (this.socket === socket) this.socket = null;
        this.info = null;
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          this.pending.delete(id);
          p.reject(noResponse(p.step, new Error('the WebSocket closed')));
        }
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          reject(noResponse(step, new Error('the WebSocket closed')));
        }
      });
      socket.addEventListener('message', (event) => this.onMessage(event.data));
    }).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private onMessage(raw: unknown) {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(typeof raw === 'string' ? raw : String(raw)) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof message.id !== 'number') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    const { step } = pending;
    if (message.ok === true) {
      const data = message.data;
      pending.resolve(data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {});
      return;
    }
    const code = typeof message.code === 'number' ? message.code : -1;
    const msg = typeof message.msg === 'string' ? message.msg : undefined;
    if (code === CODE_NOT_OPEN && step !== 'open') pending.reject(new NotOpenSignal(code, msg ?? 'device not open'));
    else if (code === CODE_BAD_REQUEST || code < 0) pending.reject(readerMessage(step, msg));
    else pending.reject(deviceFailure(step, code, CODE_KIND[code], msg));
  }

  private async send(cmd: string, params: Record<string, string | number>, step: ReaderStep, timeoutMs = this.timeoutMs): Promise<Record<string, unknown>> {
    const socket = await this.connect(step);
    const id = ++this.sequence;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(noResponse(step, new Error(`no answer to ${cmd} within ${timeoutMs} ms`)));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, step, timer });
      try {
        socket.send(JSON.stringify({ id, cmd, ...params }));
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(noResponse(step, error));
      }
    });
  }

  protected async doOpen(): Promise<ReaderInfo> {
    const data = await this.send('device.open', {}, 'open');
    const deviceId = checkDevice(data.deviceId);
    return {
      type: 3,
      deviceId,
      serial: typeof data.serial === 'string' ? data.serial : '',
      simulated: data.simulated === true || deviceId.toUpperCase().startsWith('SIM'),
    };
  }

  protected async doRequest(): Promise<string> {
    const data = await this.send('card.request', {}, 'request');
    const uid = normaliseUid(data.uid);
    if (!uid) throw new ReaderError('uidFailed', { step: 'request', hint: 'checkCard', detail: `not a card number: ${String(data.uid)}` });
    return uid;
  }

  protected async doRead(_info: ReaderInfo, block: number, key: string, keyType: KeyType): Promise<string> {
    const data = await this.send('card.read', { block, key, keyType }, 'read');
    if (typeof data.data !== 'string' || !/^[0-9A-Fa-f]{32}$/.test(data.data))
      throw new ReaderError('readFailed', { step: 'read', hint: 'checkCard', detail: 'no block data in the answer' });
    return data.data.toUpperCase();
  }

  protected async doWrite(_info: ReaderInfo, block: number, data: string, key: string, keyType: KeyType): Promise<void> {
    await this.send('card.write', { block, data, key, keyType }, 'write', this.writeTimeoutMs);
  }

  protected async doBeep(_info: ReaderInfo, ms: number): Promise<void> {
    await this.send('device.beep', { ms }, 'beep');
  }

  protected async doFinger(): Promise<FingerprintCapture> {
    const data = await this.send('finger.capture', {}, 'finger');
    if (typeof data.template !== 'string' || typeof data.quality !== 'number')
      throw new ReaderError('fingerFailed', { step: 'finger', detail: 'no template in the answer' });
    return { template: data.template, quality: data.quality };
  }

  protected async doDispenserStatus(): Promise<DispenserStatus> {
    const d = await this.send('dispenser.status', {}, 'dispenser');
    const n = (v: unknown) => (typeof v === 'number' ? v : 0);
    return { stock: n(d.stock), capacity: n(d.capacity), bin: n(d.bin), binCapacity: n(d.binCapacity), cardAtReader: d.cardAtReader === true };
  }

  protected async doDispense(): Promise<string> {
    const data = await this.send('dispenser.dispense', {}, 'dispenser');
    const uid = normaliseUid(data.uid);
    if (!uid) throw new ReaderError('dispenserFailed', { step: 'dispenser', detail: 'no card number in the answer' });
    return uid;
  }

  protected async doCapture(): Promise<void> {
    await this.send('dispenser.capture', {}, 'dispenser');
  }

  protected async doClose(wasOpen: boolean): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    try {
      if (wasOpen) await this.send('device.close', {}, 'close');
    } finally {
      socket.close();
      this.socket = null;
    }
  }
}
