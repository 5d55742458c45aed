import { READER_TIMEOUT_MS, READER_WRITE_TIMEOUT_MS } from './constants';
import { ReaderError, deviceFailure } from './errors';
import type { CardReader, DispenserStatus, FingerprintCapture, KeyType, ReaderInfo, ReaderOptions, ReaderType } from './types';
import { checkBlock, checkBlockData, checkKey } from './validate';

/** A service saying the device is not open (it was unplugged and back, or the service restarted). */
export class NotOpenSignal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function checkKeyType(keyType: unknown): KeyType {
  if (keyType === 'A' || keyType === 'B') return keyType;
  throw new ReaderError('keyRequired', { step: 'validate', detail: 'key type must be A or B' });
}

/**
 * What the three drivers share: the checks of spec §5 before anything is sent, opening the
 * device on first use (and once more when the service says it is no longer open), and the
 * timeouts of spec §9. A driver implements the `do*` methods in its own protocol.
 */
export abstract class BaseReader implements CardReader {
  abstract readonly type: ReaderType;
  protected info: ReaderInfo | null = null;
  protected readonly timeoutMs: number;
  protected readonly writeTimeoutMs: number;
  private opening: Promise<ReaderInfo> | null = null;

  constructor(options: ReaderOptions) {
    this.timeoutMs = options.timeoutMs ?? READER_TIMEOUT_MS;
    this.writeTimeoutMs = options.writeTimeoutMs ?? READER_WRITE_TIMEOUT_MS;
  }

  get readerInfo(): ReaderInfo | null {
    return this.info;
  }

  open(): Promise<ReaderInfo> {
    this.opening ??= this.doOpen()
      .then((info) => {
        this.info = info;
        return info;
      })
      .finally(() => {
        this.opening = null;
      });
    return this.opening;
  }

  protected async withDevice<T>(op: (info: ReaderInfo) => Promise<T>): Promise<T> {
    const info = this.info ?? (await this.open());
    try {
      return await op(info);
    } catch (error) {
      if (!(error instanceof NotOpenSignal)) throw error;
      this.info = null;
      const reopened = await this.open();
      try {
        return await op(reopened);
      } catch (again) {
        if (again instanceof NotOpenSignal) throw deviceFailure('open', again.code, 'openFailed', again.message);
        throw again;
      }
    }
  }

  requestCard(): Promise<string> {
    return this.withDevice((info) => this.doRequest(info));
  }

  readBlock(block: number, key: string, keyType: KeyType = 'A'): Promise<string> {
    const b = checkBlock(block);
    const k = checkKey(key);
    const t = checkKeyType(keyType);
    return this.withDevice((info) => this.doRead(info, b, k, t));
  }

  writeBlock(block: number, data: string, key: string, keyType: KeyType = 'A'): Promise<void> {
    const b = checkBlock(block);
    const d = checkBlockData(data);
    const k = checkKey(key);
    const t = checkKeyType(keyType);
    return this.withDevice((info) => this.doWrite(info, b, d, k, t));
  }

  beep(ms = 100): Promise<void> {
    return this.withDevice((info) => this.doBeep(info, Math.max(10, Math.min(2_550, Math.round(ms)))));
  }

  captureFingerprint(): Promise<FingerprintCapture> {
    return this.withDevice((info) => this.doFinger(info));
  }

  dispenserStatus(): Promise<DispenserStatus> {
    return this.withDevice((info) => this.doDispenserStatus(info));
  }

  dispenseCard(): Promise<string> {
    return this.withDevice((info) => this.doDispense(info));
  }

  captureCard(): Promise<void> {
    return this.withDevice((info) => this.doCapture(info));
  }

  async close(): Promise<void> {
    const wasOpen = this.info !== null;
    this.info = null;
    try {
      await this.doClose(wasOpen);
    } catch {
      // Closing never fails: the device is let go either way.
    }
  }

  protected abstract doOpen(): Promise<ReaderInfo>;
  protected abstract doRequest(info: ReaderInfo): Promise<string>;
  protected abstract doRead(info: ReaderInfo, block: number, key: string, keyType: KeyType): Promise<string>;
  protected abstract doWrite(info: ReaderInfo, block: number, data: string, key: string, keyType: KeyType): Promise<void>;
  protected abstract doBeep(info: ReaderInfo, ms: number): Promise<void>;
  protected abstract doFinger(info: ReaderInfo): Promise<FingerprintCapture>;
  protected abstract doDispenserStatus(info: ReaderInfo): Promise<DispenserStatus>;
  protected abstract doDispense(info: ReaderInfo): Promise<string>;
  protected abstract doCapture(info: ReaderInfo): Promise<void>;
  protected abstract doClose(wasOpen: boolean): Promise<void>;
}
