import fs from 'node:fs';
import path from 'node:path';

/**
 * What the simulator keeps across restarts, as one JSON value: the device's serial number, the
 * "wallet" of every card it has seen (with each card's 64 blocks), which card lies on the reader,
 * the card dispenser and the fingerprint module. Written to `stateFile` (a temporary file, then a
 * rename) after a short quiet time and on close. Whether the device is plugged in and whether the
 * services answer are not kept: a restart is a fresh start of the reader software.
 */
export interface ReaderSimState {
  version: 1;
  /** The device's serial number ("SIM" and 8 digits), made once and kept. */
  deviceSerial: string;
  /** Every card known to the simulator, by upper-case hex UID. */
  wallet: Record<string, SimCard>;
  /** The UID of the card in the reader's field, or null. */
  onReader: string | null;
  dispenser: DispenserState;
  finger: FingerState;
}

export interface SimCard {
  uid: string;
  /** 64 blocks, 32 upper-case hex characters each. */
  blocks: string[];
  /** How the card came to exist: placed through the control API, or dispensed. */
  origin: 'control' | 'dispenser';
  /** Where it is: on the reader, in the wallet (taken away), or captured into the dispenser's bin. */
  location: 'reader' | 'wallet' | 'bin';
  createdAt: number;
}

export interface DispenserState {
  /** A dispenser is attached to the reader. */
  present: boolean;
  /** Blank cards in the stacker. */
  stock: number;
  capacity: number;
  /** Cards captured into the bin. */
  bin: number;
  binCapacity: number;
}

export interface FingerState {
  /** The device has a fingerprint module. */
  present: boolean;
  /** The finger on the sensor (its id makes its template), or null. */
  placed: { id: string; quality: number } | null;
}

export function emptyState(deviceSerial?: string): ReaderSimState {
  return {
    version: 1,
    deviceSerial: deviceSerial ?? `SIM${String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0')}`,
    wallet: {},
    onReader: null,
    dispenser: { present: true, stock: 50, capacity: 100, bin: 0, binCapacity: 30 },
    finger: { present: true, placed: null },
  };
}

export function loadState(file: string | undefined): ReaderSimState {
  if (!file || !fs.existsSync(file)) return emptyState();
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as ReaderSimState;
  if (parsed.version !== 1) throw new Error(`reader simulator: ${file} holds state version ${String(parsed.version)}, expected 1`);
  const empty = emptyState();
  return {
    ...empty,
    ...parsed,
    dispenser: { ...empty.dispenser, ...parsed.dispenser },
    finger: { ...empty.finger, ...parsed.finger },
  };
}

/**
 * Writes the state to `file` after `debounceMs` of quiet (many changes, one write), one write at a
 * time, atomically: a temporary file next to it, then a rename (as apps/lock-sim does).
 */
export class StateWriter {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string | undefined,
    private readonly snapshot: () => ReaderSimState,
    private readonly debounceMs: number,
  ) {}

  markDirty(): void {
    if (!this.file) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((error: unknown) => console.error('reader simulator: could not save its state', error));
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes now if anything changed since the last write. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const next = this.writing.then(async () => {
      if (!this.file || !this.dirty) return;
      this.dirty = false;
      const text = JSON.stringify(this.snapshot(), null, 1);
      const tmp = `${this.file}.${process.pid}.tmp`;
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      await fs.promises.writeFile(tmp, text, 'utf8');
      await fs.promises.rename(tmp, this.file);
    });
    this.writing = next.catch(() => {});
    return next;
  }
}
