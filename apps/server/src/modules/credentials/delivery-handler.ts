/**
 * What the delivery engine (delivery.ts) asks of each kind of credential: the handler interface and
 * the shapes it passes around. Apart from the handlers themselves (delivery-kinds.ts,
 * cards/card-delivery.ts), so that a handler module imports these without importing the registry.
 */
import type { Deps } from '../../context';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import type { KnownLock, LockProvider, PasscodeState } from '../../infra/locks/provider';
import type { DeliveryLock } from '../base/lock-ref';
import type { CredentialKind } from './lock-tags';

export type DeliveryStateName = 'pending' | 'on_lock' | 'failed' | 'removing' | 'removed' | 'remove_failed' | 'unknown';

/** What the engine needs of a credential, whatever its kind. */
export interface DeliveryRow {
  id: number;
  hotelId: number;
  /** The credential's room (0 for a shared door's card keys, which belong to no room). */
  roomId: number;
  /** A shared door's credential or card keys: the door's lock (Lock id); null or absent: the room's lock. */
  doorLockId?: number | null;
  /** The room's lock (a Lock row of the hotel) and its lock account; null when the room has no lock. */
  lock: DeliveryLock | null;
  deliveryState: DeliveryStateName;
  version: number;
  providerRef: string | null;
  /**
   * The version a platform that sets codes after answering (Seam) accepted and has not confirmed on
   * the lock yet: equal to `version`, the credential is being set (passwords only).
   */
  acceptedVersion?: number | null;
  validFrom: Date;
  validUntil: Date | null;
  revokeReason: string | null;
  /** The name the credential carries on the lock, ending with its tag (`#P12`). */
  lockName: string;
  /** Password fields. */
  passwordKind?: 'air' | 'custom' | 'one_time';
  code?: string | null;
  /** What the password's lock takes, from its row (the adapter need not ask the platform first). */
  known?: KnownLock;
  /**
   * Face fields: the face's photo in the upload store (`Face.imageUrl`) and the SHA-256 it had when
   * the face was made (`Face.imageSha256`). The lock cloud makes the feature data from it at each push.
   */
  photo?: { url: string; sha256: string };
  /** Card fields: how it reaches the lock, its number, and the writing of the card it belongs to. */
  card?: { medium: 'data' | 'number' | 'encoded'; number: string; issueId: number; reversed: boolean };
}

/**
 * What a push may need besides the provider: the upload store (face photos), the database (through
 * `transaction()` when it writes) and the card key secret of the config (card keys).
 */
export type PushContext = Pick<Deps, 'files' | 'prisma' | 'config' | 'log' | 'redis' | 'key'>;

/**
 * A delivery that cannot succeed for a reason of ours, not the lock's: it fails at once with `code`
 * (`photo_missing`: the face's photo is no longer in the upload store, or is not the one it was).
 */
export class DeliveryFailure extends Error {
  constructor(
    readonly code: 'photo_missing',
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'DeliveryFailure';
  }
}

export interface DeliveryPatch {
  deliveryState?: DeliveryStateName;
  lastError?: string | null;
  lastAttemptAt?: Date;
  deliveredAt?: Date;
  removedAt?: Date;
  attempts?: number;
  revokeReason?: string | null;
  providerRef?: string | null;
  acceptedVersion?: number | null;
  code?: string;
  /** A generated password whose hours the lock cloud would not issue again: the period it took instead. */
  validFrom?: Date;
  validUntil?: Date | null;
  validityAdjusted?: boolean;
  /** A password whose chosen code the platform failed to set, replaced by one of its backup codes. */
  backupCode?: boolean;
}

/** What a push put on the lock: its id there, a generated code, and the validity when it is not the one asked. */
export interface Pushed {
  ref: string;
  /** False when the platform accepted it and sets it later (`LockProvider.confirmsWrites`): it is not on the lock yet. */
  settled?: boolean;
  code?: string;
  validity?: { validFrom: Date; validUntil: Date | null };
}

export interface CredentialKindHandler {
  load(prisma: TPrisma, id: number): Promise<DeliveryRow | null>;
  /** Credentials with lock work to do (pending or removing), as job data. */
  findWork(
    prisma: TPrisma,
    scope: { hotelId?: number; stayId?: number; roomId?: number | { in: number[] }; guestId?: number; customerId?: number },
  ): Promise<{ kind: CredentialKind; id: number; version: number }[]>;
  /** Puts it on the lock. May throw DeliveryFailure besides LockProviderError. */
  push(provider: LockProvider, lockId: string, row: DeliveryRow, context: PushContext): Promise<Pushed>;
  remove(provider: LockProvider, lockId: string, row: DeliveryRow): Promise<void>;
  /**
   * Makes the lock's copy (`providerRef`) carry the row's validity, for a credential already on the
   * lock whose validity changed. Throws `credential_not_found` when the lock no longer has it.
   */
  changeValidity(provider: LockProvider, lockId: string, row: DeliveryRow): Promise<void>;
  /**
   * Where the lock's copy (`providerRef`) stands, for a platform that answers a write before the
   * lock has it (`confirmsWrites` false). Only the kinds such a platform takes have it (passwords).
   */
  state?(provider: LockProvider, lockId: string, row: DeliveryRow): Promise<PasscodeState>;
  /**
   * A code the platform keeps on the lock in place of this one, which it failed to set (Seam's
   * backup pool): its ref and digits, or null where there is none. Passwords only.
   */
  backup?(provider: LockProvider, lockId: string, row: DeliveryRow): Promise<{ ref: string; code: string } | null>;
  /** The provider's id of this credential if the lock holds it (matched by its tag), else null. */
  findOnLock(provider: LockProvider, lockId: string, row: DeliveryRow): Promise<string | null>;
  save(prisma: TPrisma, id: number, patch: DeliveryPatch): Promise<void>;
  /**
   * Writes the patch only if the credential is still at this version (`whileAccepted`: and that
   * version is still the accepted one, not yet confirmed by another); false when it moved on. A
   * delivery's end is written in a transaction (`tx`), with its domain event.
   */
  saveIfVersion(prisma: TPrisma | Tx, id: number, version: number, patch: DeliveryPatch, whileAccepted?: boolean): Promise<boolean>;
  /**
   * A step of the credential's life cycle by hand (life-cycle.ts: revoke, retry): writes `change`
   * only while the credential is in one of `from`; 1 when it did, 0 when it had moved on.
   */
  transition(tx: Tx, id: number, from: readonly DeliveryStateName[], change: LifeCycleChange): Promise<number>;
}

/** What a step of the life cycle writes: the next state as a new version the delivery engine carries out. */
export interface LifeCycleChange {
  deliveryState: 'pending' | 'removing';
  version: { increment: number };
  attempts: number;
  revokeReason?: string;
  lastError?: null;
}
