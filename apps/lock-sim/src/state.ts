import fs from 'node:fs';
import path from 'node:path';
import type { HotelCardKeys } from '@console/card-format';

/**
 * Everything the simulator knows, as one JSON-serialisable value: the cloud's records of locks,
 * gateways and credentials, what each lock really holds, the issued tokens and the counters of
 * ids. Persisted to `stateFile` (write to a temporary file, then rename) so a restart of the
 * simulator keeps it.
 */
export interface SimState {
  version: 1;
  counters: { lockId: number; gatewayId: number; keyboardPwdId: number; cardId: number; faceId: number; recordId: number; uid: number; doorSensorId: number };
  /** Offset of the simulated cloud's clock from the machine's, in ms. */
  clockOffsetMs: number;
  /** Where lock records are pushed (TTLock's "callback URL" of the application), or null. */
  callbackUrl: string | null;
  /**
   * TTLock user accounts by username. The default account (the simulator's `username` and
   * `password`) is always there; a state written before accounts existed has none, and its locks
   * and gateways (no `owner`) belong to the default account.
   */
  accounts: Record<string, SimAccount>;
  locks: Record<string, SimLock>;
  gateways: Record<string, SimGateway>;
  tokens: Record<string, SimToken>;
  refreshTokens: Record<string, SimRefreshToken>;
  /** Lock records uploaded to the cloud (what `lockRecord/list` reads). */
  records: SimRecord[];
}

/** A TTLock user account (the one a token is granted to, and the administrator of its locks and gateways). */
export interface SimAccount {
  username: string;
  /** In clear: the cloud compares the lower-case MD5 the caller sends. */
  password: string;
  uid: number;
  /** The site its data lives on; the simulator answers 30008 for an account of the other site. */
  region: SimRegion;
  /** 'ttlock' (TTLock app: lock/list) or 'tthotel' (TTHotel: lock/listByHotel). */
  kind: SimAccountKind;
  /** /v3 calls a month (Beijing time) before 30007; null: no limit. */
  monthlyLimit: number | null;
  createdAt: number;
  /** Its /v3 calls that passed the checks (see LockCloud.authenticate); `month` is Beijing time, `YYYY-MM`. Absent: none yet. */
  usage?: { total: number; month: string; thisMonth: number };
}

export type SimRegion = 'eu' | 'cn';
export type SimAccountKind = 'ttlock' | 'tthotel';

export interface SimToken {
  /** The account's uid. */
  uid: number;
  expiresAt: number;
  refreshToken: string;
  /** Revoked by the control API: answers 10004 until it is pruned. */
  revoked?: boolean;
}

export interface SimRefreshToken {
  uid: number;
  expiresAt: number;
  revoked?: boolean;
}

export interface SimGateway {
  gatewayId: number;
  /** The account it belongs to (username); absent (older state): the default account. */
  owner?: string;
  gatewayName: string;
  gatewayMac: string;
  networkName: string;
  online: boolean;
  createdAt: number;
}

/** A failure forced on every matching call to a lock until removed. */
export interface InjectedFailure {
  code: number;
  message?: string;
  /** TTLock paths without `/v3/` (`keyboardPwd/add`); absent: every call about the lock. */
  ops?: string[];
}

export interface SimLock {
  lockId: number;
  /** The account it belongs to (username); absent (older state): the default account. */
  owner?: string;
  lockName: string;
  lockAlias: string;
  lockMac: string;
  battery: number;
  /** The lock answers its gateway. When false, writes through the gateway fail with -3036. */
  online: boolean;
  frozen: boolean;
  /** "Remote unlock" setting of the lock; when off, `lock/unlock` fails with -4043. */
  remoteUnlock: boolean;
  /**
   * The lock has a face module (TTLock's feature bits 69 / 110); when false, every face call fails
   * with -4043. Absent (state written before it existed): true.
   */
  faceModule?: boolean;
  /** A keypad (feature bit 0): without one every passcode call answers -4043. Absent: true. */
  keypad?: boolean;
  /** An IC card reader (feature bit 1): without one every card call answers -4043. Absent: true. */
  cardReader?: boolean;
  /** A door sensor (feature bit 13): doorSensor/query and door notifications. Absent: false. */
  doorSensor?: boolean;
  /** What its door sensor reports; made when the lock first gets a door sensor. */
  doorSensorInfo?: SimDoorSensor;
  /** The door as its sensor last reported it (control `/door`). */
  doorState?: SimDoorState;
  /**
   * A WiFi lock reaches the cloud itself: reachable whenever it is online, its writes need no
   * gateway (latency, then -3036 if offline). Absent: false.
   */
  wifi?: boolean;
  /** The network a WiFi lock is on (its online/offline notification). Absent: SIM-WIFI. */
  networkName?: string;
  /** The lock's time zone in ms from UTC (generated passcodes keep its whole hours). Absent: 28,800,000 (UTC+8). */
  timezoneRawOffset?: number;
  /** How the lock reads an IC card's UID into a number: 'big' endian (absent) or 'little'. */
  cardNumberOrder?: CardNumberOrder;
  /** Where the lock is (lock/listByHotel). Absent: derived from its name. */
  building?: { name: string; number: number };
  floor?: { name: string; number: number };
  /** When its battery level was last reported. Absent: createdAt. */
  batteryUpdatedAt?: number;
  /** Validities of generated passcodes got and then deleted: asking for one again answers -1026. */
  deletedRandomPeriods?: RandomPeriod[];
  /** Gateways paired with (in range of) the lock, best signal first. */
  gatewayIds: number[];
  capacity: { passcodes: number; cards: number; faces: number };
  /** Latency of gateway writes to this lock in ms; null: the simulator's default. */
  latencyMs: number | null;
  /** Offset of the lock's own clock from the cloud's, in ms (locks drift). */
  clockOffsetMs: number;
  /** When the lock was last heard from through a gateway (kept when it stops answering). */
  lastSeenAt: number;
  createdAt: number;
  failures: InjectedFailure[];
  passcodes: SimPasscode[];
  cards: SimCard[];
  faces: SimFace[];
  /** Records the lock keeps while no gateway can read them (at most 500, oldest dropped). */
  pendingRecords: SimRecord[];
  /**
   * What the lock knows to read our room cards (docs/card-format.md), set through the simulator's
   * own `lock/setHotelCardKeys`. Absent: it reads no room card.
   */
  hotelCard?: SimHotelCard;
  /** The newest guest-card generation the lock has let in, per lock number (docs/card-format.md). */
  cardGenerations?: Record<string, number>;
  /** Cards the lock refuses: UIDs (upper-case hex) and card ids (from the cloud and from cancel cards). */
  cardDenylist?: { uids: string[]; cardIds: number[] };
}

export type CardNumberOrder = 'big' | 'little';
export type SimDoorState = 'closed' | 'open' | 'left_open' | 'left_open_long';

/** A generated passcode's type and validity as keyboardPwd/get made it (whole hours of the lock). */
export interface RandomPeriod {
  keyboardPwdType: number;
  startDate: number;
  endDate: number;
}

/** A lock's door sensor as doorSensor/query answers it. */
export interface SimDoorSensor {
  doorSensorId: number;
  name: string;
  electricQuantity: number;
  version: string;
  mac: string;
  number: string;
  /** Seconds; 0: off. */
  doorNotClosedWarningTime: number;
}

/** The card keys and lock number a lock holds (simulator extension, not TTLock's). */
export interface SimHotelCard {
  hotelTag: number;
  /** A room's lock: its number on cards; 0 on a shared door. */
  lockNumber: number;
  /** A shared door (entrance, lift, ...): its door number, which guest cards name (card format version 2). */
  doorNumber?: number;
  /** The hotel's key sets, current first; the lock tries each while it is valid. */
  keys: SimCardKey[];
  updatedAt: number;
}

export interface SimCardKey {
  keyId: string;
  /** When the lock stops trying this key set (ms); null: until it is replaced. */
  validUntil: number | null;
  keys: HotelCardKeys;
}

/**
 * A credential, with where it is: `inCloud` (listed by the cloud's list calls) and `onLock`
 * (accepted by the lock). They differ after `addType`/`deleteType` 1, and after planted drift.
 */
interface CredentialBase {
  inCloud: boolean;
  onLock: boolean;
  startDate: number;
  /** 0: permanent. */
  endDate: number;
  createdAt: number;
  senderUsername: string;
}

export interface SimPasscode extends CredentialBase {
  keyboardPwdId: number;
  keyboardPwd: string;
  keyboardPwdName: string;
  /** 1 one-time, 2 permanent, 3 period. */
  keyboardPwdType: number;
  isCustom: boolean;
  /** First use at the lock (random codes must be used within 24 hours of their start). */
  firstUsedAt: number | null;
  /** A one-time code after its use. */
  used: boolean;
  /** A generated passcode: the type and validity keyboardPwd/get made it with (-1026 once it is deleted). */
  generatedWith?: RandomPeriod;
}

export interface SimCard extends CredentialBase {
  cardId: number;
  cardNumber: string;
  cardName: string;
}

export interface SimFace extends CredentialBase {
  faceId: number;
  faceNumber: string;
  name: string;
  featureData: string;
}

export interface SimRecord {
  recordId: number;
  lockId: number;
  recordTypeFromLock: number;
  recordType: number;
  success: 0 | 1;
  username: string;
  keyboardPwd: string;
  lockDate: number;
  /** When the cloud received it; 0 while it waits in the lock. */
  serverDate: number;
  electricQuantity: number;
  /**
   * Why a room card was refused (`superseded`, `denylisted`, ... of docs/card-format.md), or
   * `cancel_applied`: a field of the simulator's, on room-card records only; TTLock has none.
   */
  reason?: string;
}

export function emptyState(): SimState {
  return {
    version: 1,
    counters: {
      lockId: 100_000,
      gatewayId: 200_000,
      keyboardPwdId: 3_000_000,
      cardId: 4_000_000,
      faceId: 5_000_000,
      recordId: 9_000_000,
      uid: 7_000,
      doorSensorId: 600_000,
    },
    clockOffsetMs: 0,
    callbackUrl: null,
    accounts: {},
    locks: {},
    gateways: {},
    tokens: {},
    refreshTokens: {},
    records: [],
  };
}

export function loadState(file: string | undefined): SimState {
  if (!file || !fs.existsSync(file)) return emptyState();
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as SimState;
  if (parsed.version !== 1) throw new Error(`lock simulator: ${file} holds state version ${String(parsed.version)}, expected 1`);
  return { ...emptyState(), ...parsed, counters: { ...emptyState().counters, ...parsed.counters } };
}

/**
 * Writes the state to `file` after `debounceMs` of quiet (many changes, one write), one write at a
 * time, atomically: a temporary file next to it, then a rename, so a crash never leaves half a file.
 */
export class StateWriter {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string | undefined,
    private readonly snapshot: () => SimState,
    private readonly debounceMs: number,
  ) {}

  markDirty(): void {
    if (!this.file) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((error: unknown) => console.error('lock simulator: could not save its state', error));
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
      const text = JSON.stringify(this.snapshot());
      const tmp = `${this.file}.${process.pid}.tmp`;
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      await fs.promises.writeFile(tmp, text, 'utf8');
      await fs.promises.rename(tmp, this.file);
    });
    this.writing = next.catch(() => {});
    return next;
  }
}
