/** Reader type, as kept in localStorage `cardSenderType` (spec §9). */
export type ReaderType = 1 | 2 | 3;
export const READER_TYPES: readonly ReaderType[] = [1, 2, 3];

/** MIFARE key A or key B of a sector. */
export type KeyType = 'A' | 'B';

/** What the reader says about itself when opened. */
export interface ReaderInfo {
  type: ReaderType;
  /** The device id the reader reports (the card reader registry binds it to an account). */
  deviceId: string;
  /** The device's serial number. */
  serial: string;
  /** A simulated reader (apps/reader-sim): the console says so. */
  simulated: boolean;
}

export interface FingerprintCapture {
  /** The template, base64. */
  template: string;
  /** 0-100. */
  quality: number;
}

export interface DispenserStatus {
  stock: number;
  capacity: number;
  /** Cards captured into the bin. */
  bin: number;
  binCapacity: number;
  /** A card lies at the reader (dispensed, not yet taken or captured). */
  cardAtReader: boolean;
}

/**
 * One desk card reader, whatever its type: screens use only this. Every method opens the reader
 * first when needed, and fails with a ReaderError (errors.ts). Card numbers (UIDs) are upper-case
 * hex in the card's byte order; block data is 32 hex characters; keys are 12.
 */
export interface CardReader {
  readonly type: ReaderType;
  /** Known after `open()`. */
  readonly readerInfo: ReaderInfo | null;
  open(): Promise<ReaderInfo>;
  /** The UID of the card on the reader (request, anticollision, select). */
  requestCard(): Promise<string>;
  /** Authenticates the block's sector with the key, then reads the block. */
  readBlock(block: number, key: string, keyType?: KeyType): Promise<string>;
  /** Authenticates the block's sector with the key, then writes the block (5 s timeout). */
  writeBlock(block: number, data: string, key: string, keyType?: KeyType): Promise<void>;
  beep(ms?: number): Promise<void>;
  captureFingerprint(): Promise<FingerprintCapture>;
  dispenserStatus(): Promise<DispenserStatus>;
  /** Moves a blank card from the dispenser onto the reader; answers its UID. */
  dispenseCard(): Promise<string>;
  /** Pulls the card on the reader into the dispenser's bin. */
  captureCard(): Promise<void>;
  /** Lets the device go; never fails. */
  close(): Promise<void>;
}

/** The part of a WebSocket the type 3 driver uses (the browser's, or the `ws` package's in Node tests). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (event: { data?: unknown }) => void): void;
}
export type WebSocketFactory = new (url: string) => WebSocketLike;

export interface ReaderOptions {
  /** The service's base URL instead of the well-known one (tests, a service on another port). */
  baseUrl?: string;
  /** fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** WebSocket constructor for type 3 (default: the global one). */
  WebSocket?: WebSocketFactory;
  /** Per-call timeout (default 2 s) and write timeout (default 5 s), spec §9. */
  timeoutMs?: number;
  writeTimeoutMs?: number;
}
