import type {
  CardDenylistEntry,
  CardKeysTarget,
  CardOnLock,
  DoorSensor,
  FaceOnLock,
  FacePhoto,
  GatewayLink,
  GatewaySummary,
  LockCardSettings,
  LockProvider,
  LockRecord,
  LockStatus,
  LockSummary,
  PasscodeOnLock,
  PasscodeState,
  RandomPasscodeType,
  Validity,
} from './provider';
import * as card from './ttlock-api/card';
import * as face from './ttlock-api/face';
import * as gateway from './ttlock-api/gateway';
import * as lock from './ttlock-api/lock';
import { TtlockSession, type TtlockAccountOptions } from './ttlock-api/oauth';
import * as passcode from './ttlock-api/passcode';
import * as records from './ttlock-api/records';

export type { TtlockApp } from './ttlock-api/http';
export { capabilitiesOf, featureBit } from './ttlock-api/lock';
export { parseTtlockNotification, type TtlockNotification } from './ttlock-api/notifications';
export { ttlockPasswordGrant, type LockTokens, type TokenStore, type TtlockAccountOptions } from './ttlock-api/oauth';
export { ttlockRecordId } from './ttlock-api/records';

/**
 * The TTLock Open API v3 adapter (docs: euopen.ttlock.com, "document-pages/cloud/..."; summary in
 * shared/research/locks-and-cards.md), one instance per lock account of a hotel. It speaks to the
 * real cloud (https://euapi.ttlock.com, https://cnapi.ttlock.com) or to `apps/lock-sim`, which
 * answers the same calls.
 *
 * - The account's tokens come from a TokenStore (the database, sealed): an access token is renewed
 *   with the refresh token before it expires, under the store's lock so that two processes never
 *   spend one refresh token twice; a call answered "token invalid" (10003 / 10004) gets one
 *   renewal and is sent once more. A refresh token refused means the account needs its password
 *   again: the store is told, and the call fails `auth_failed`. The password itself is only ever
 *   sent by `ttlockPasswordGrant`, as its MD5 (lower-case hex), and never kept.
 * - Every call carries clientId, accessToken and date (ms; the cloud wants it within 5 minutes of
 *   its clock). Writes are form-encoded POSTs, reads GETs with a query, as TTLock documents them
 *   (keyboardPwd/get and doorSensor/query are form POSTs too); face/getFeatureDataByPhoto alone is
 *   a multipart POST (the photo in `image`, the rest in the query).
 * - Credentials go through the lock's gateway (addType / deleteType 2): addType 1, TTLock's default,
 *   only records a code that is already on the lock.
 * - Failures are LockProviderError: TTLock's errcode mapped by the one catalogue (ttlock-errors.ts),
 *   the vendor code kept. Every call is reported to `onCall` (the account's call budget).
 *
 * This file is the adapter (`LockProvider`); its calls are written by TTLock API area in
 * `ttlock-api/`: oauth (the tokens and the account's session every call goes through), lock,
 * gateway, passcode, card, face, records, and the callback's notifications.
 */
export class TtlockProvider implements LockProvider {
  readonly name = 'ttlock';
  readonly simulated: boolean;
  /** A write answered is on the lock: TTLock answers once the gateway set it. */
  readonly confirmsWrites = true;
  private readonly session: TtlockSession;

  constructor(options: TtlockAccountOptions) {
    this.session = new TtlockSession(options);
    this.simulated = this.session.simulated;
  }

  // Locks and gateways
  listLocks(): Promise<LockSummary[]> {
    return lock.listLocks(this.session);
  }
  listGateways(): Promise<GatewaySummary[]> {
    return gateway.listGateways(this.session);
  }
  gatewayLocks(gatewayId: string): Promise<GatewayLink[]> {
    return gateway.gatewayLocks(this.session, gatewayId);
  }
  lockDetail(lockId: string): Promise<LockSummary> {
    return lock.lockDetail(this.session, lockId);
  }
  lockStatus(lockId: string): Promise<LockStatus> {
    return lock.lockStatus(this.session, lockId);
  }
  /** TTLock's lock list says nothing of online: the status cycle reads the gateways (no call here). */
  async lockStatuses(): Promise<LockStatus[] | null> {
    return null;
  }
  doorSensor(lockId: string): Promise<DoorSensor | null> {
    return lock.doorSensor(this.session, lockId);
  }
  unlock(lockId: string): Promise<void> {
    return lock.unlock(this.session, lockId);
  }

  // Passcodes
  getRandomPasscode(lockId: string, input: { type: RandomPasscodeType; name: string; timeZone: string } & Validity): Promise<{ ref: string; code: string }> {
    return passcode.getRandomPasscode(this.session, lockId, input);
  }
  addCustomPasscode(lockId: string, input: { code: string; name: string } & Validity): Promise<{ ref: string }> {
    return passcode.addCustomPasscode(this.session, lockId, input);
  }
  changePasscodeValidity(lockId: string, ref: string, input: Validity): Promise<void> {
    return passcode.changePasscodeValidity(this.session, lockId, ref, input);
  }
  deletePasscode(lockId: string, ref: string): Promise<void> {
    return passcode.deletePasscode(this.session, lockId, ref);
  }
  listPasscodes(lockId: string): Promise<PasscodeOnLock[]> {
    return passcode.listPasscodes(this.session, lockId);
  }
  passcodeState(lockId: string, ref: string): Promise<PasscodeState> {
    return passcode.passcodeState(this.session, lockId, ref);
  }

  // Cards
  addCard(lockId: string, input: { cardNumber: string; name: string; reversed: boolean } & Validity): Promise<{ ref: string }> {
    return card.addCard(this.session, lockId, input);
  }
  deleteCard(lockId: string, ref: string): Promise<void> {
    return card.deleteCard(this.session, lockId, ref);
  }
  listCards(lockId: string): Promise<CardOnLock[]> {
    return card.listCards(this.session, lockId);
  }
  setCardKeys(lockId: string, input: CardKeysTarget): Promise<void> {
    return card.setCardKeys(this.session, lockId, input);
  }
  denylistCard(lockId: string, entry: CardDenylistEntry): Promise<void> {
    return card.denylistCard(this.session, lockId, entry);
  }
  undenylistCard(lockId: string, entry: CardDenylistEntry): Promise<void> {
    return card.undenylistCard(this.session, lockId, entry);
  }
  cardSettings(lockId: string): Promise<LockCardSettings> {
    return card.cardSettings(this.session, lockId);
  }

  // Faces
  faceFeatureData(lockId: string, photo: FacePhoto): Promise<string> {
    return face.faceFeatureData(this.session, lockId, photo);
  }
  addFace(lockId: string, input: { featureData: string; name: string } & Validity): Promise<{ ref: string }> {
    return face.addFace(this.session, lockId, input);
  }
  deleteFace(lockId: string, ref: string): Promise<void> {
    return face.deleteFace(this.session, lockId, ref);
  }
  listFaces(lockId: string): Promise<FaceOnLock[]> {
    return face.listFaces(this.session, lockId);
  }

  // Records
  listRecords(lockId: string, range: { from: Date; to: Date }): Promise<LockRecord[]> {
    return records.listRecords(this.session, lockId, range);
  }
}
