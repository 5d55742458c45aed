import {
  LockProviderError,
  type CardDenylistEntry,
  type CardEncoder,
  type CardKeysTarget,
  type CardOnLock,
  type DoorSensor,
  type FaceOnLock,
  type FacePhoto,
  type GatewayLink,
  type GatewaySummary,
  type KnownLock,
  type LockCardSettings,
  type LockProvider,
  type LockRecord,
  type LockStatus,
  type LockSummary,
  type PasscodeOnLock,
  type PasscodeState,
  type RandomPasscodeType,
  type Validity,
} from '../provider';
import * as acs from './acs';
import * as codes from './access-codes';
import * as devices from './devices';
import * as webviews from './connect-webviews';
import * as records from './records';
import { SeamSession, type SeamAccountOptions } from './session';

export type { SeamAccountOptions } from './session';

const notSupported = (what: string) => Promise.reject(new LockProviderError('not_supported', undefined, `Seam locks have no ${what}`));

/**
 * The Seam adapter (Seam Connect API, https://docs.seam.co; the official HTTP client
 * `@seamapi/http`), one instance per Seam workspace (its API key). It reaches the brands Seam
 * integrates (Yale, August, Schlage, Nuki, igloohome, Salto KS, Kwikset, TTLock through Seam, ...),
 * and is tested against Seam's own fake, `@seamapi/fake-seam-connect` (seam.integration.test.ts,
 * docs/seam.md).
 *
 * - Locks are Seam devices: capabilities from Seam's flags (devices.ts), battery 0-1 as 0-100,
 *   online from the device; no gateways.
 * - Passcodes are access codes (access-codes.ts): a chosen code where the device can program online
 *   codes, an offline code (Seam-computed) for `getRandomPasscode` where it can program offline ones.
 *   A write answers "accepted"; `passcodeState` says when the lock has it.
 * - The unlock waits for Seam's action attempt (session.ts), refused before it is sent when the
 *   device cannot unlock remotely or is offline.
 * - Records are Seam's lock events (records.ts).
 * - Hotel card systems (`acs`, acs.ts): their doors are listed with the locks, and take the system's
 *   cards, encoded at the desk on its encoders (`encodeCard`, taken off by `deleteCard`).
 * - Card numbers, key sets, denylists, faces, door sensors: none on a Seam lock (`not_supported`, empty lists).
 * - Failures are LockProviderError with our codes (errors.ts), the vendor's kept. The SDK never
 *   sends a request twice (its retries are off): the console decides what to try again.
 */
export class SeamProvider implements LockProvider {
  readonly name = 'seam';
  /** Seam answers a code write "accepted" and sets it later: `passcodeState` confirms it. */
  readonly confirmsWrites = false;
  private readonly session: SeamSession;

  constructor(options: SeamAccountOptions) {
    this.session = new SeamSession(options);
  }

  /** A sandbox workspace or the fake: known once the key was read when it is read on first use. */
  get simulated(): boolean {
    return this.session.simulated;
  }

  /** The workspace of the key (workspaces/get): what a lock account is, checked before it is kept. */
  workspace(): Promise<{ workspaceId: string; name: string; sandbox: boolean }> {
    return devices.workspace(this.session);
  }

  /**
   * A page of Seam's where the hotel links the account of a lock brand into this workspace (a
   * connect webview), and whether it was completed: `redirectUrl` is where Seam sends the owner back.
   */
  async linkAccount(redirectUrl: string | null): Promise<{ linkId: string; url: string }> {
    return webviews.createLink(this.session, (await this.workspace()).workspaceId, redirectUrl);
  }

  async linkState(linkId: string): Promise<webviews.LinkState> {
    return webviews.linkState(this.session, (await this.workspace()).workspaceId, linkId);
  }

  // Locks: the workspace's lock devices, then the doors of its hotel card systems (acs.ts).
  async listLocks(): Promise<LockSummary[]> {
    return [...(await devices.listLocks(this.session)), ...(await acs.listCardSystemDoors(this.session))];
  }
  lockDetail(lockId: string): Promise<LockSummary> {
    return devices.lockDetail(this.session, lockId);
  }
  lockStatus(lockId: string): Promise<LockStatus> {
    return devices.lockStatus(this.session, lockId);
  }
  /** locks/list: each device's online state and battery, the whole workspace in one listing. */
  lockStatuses(): Promise<LockStatus[] | null> {
    return devices.lockStatuses(this.session);
  }
  unlock(lockId: string): Promise<void> {
    return devices.unlock(this.session, lockId);
  }
  /** Seam has no door sensor object to pair: a lock that reports `properties.door_open` says its door in its status (lock-status.ts). */
  async doorSensor(_lockId: string): Promise<DoorSensor | null> {
    return null;
  }
  /** Seam hides gateways and bridges behind its devices. */
  async listGateways(): Promise<GatewaySummary[]> {
    return [];
  }
  gatewayLocks(_gatewayId: string): Promise<GatewayLink[]> {
    return notSupported('gateways');
  }

  // Passcodes
  getRandomPasscode(lockId: string, input: { type: RandomPasscodeType; name: string; timeZone: string } & Validity): Promise<{ ref: string; code: string }> {
    return codes.getRandomPasscode(this.session, lockId, input);
  }
  addCustomPasscode(lockId: string, input: { code: string; name: string } & Validity, known?: KnownLock): Promise<{ ref: string }> {
    return codes.addCustomPasscode(this.session, lockId, input, known);
  }
  changePasscodeValidity(lockId: string, ref: string, input: Validity): Promise<void> {
    return codes.changePasscodeValidity(this.session, lockId, ref, input);
  }
  deletePasscode(lockId: string, ref: string): Promise<void> {
    return codes.deletePasscode(this.session, lockId, ref);
  }
  listPasscodes(lockId: string): Promise<PasscodeOnLock[]> {
    return codes.listPasscodes(this.session, lockId);
  }
  pullBackupPasscode(lockId: string, ref: string): Promise<{ ref: string; code: string }> {
    return codes.pullBackupPasscode(this.session, lockId, ref);
  }

  passcodeState(lockId: string, ref: string): Promise<PasscodeState> {
    return codes.passcodeState(this.session, lockId, ref);
  }

  // Cards: a lock device takes none; a card system's doors take the system's cards, encoded at the desk (acs.ts).
  addCard(_lockId: string, _input: { cardNumber: string; name: string; reversed: boolean } & Validity): Promise<{ ref: string }> {
    return notSupported('card numbers');
  }
  listCardEncoders(): Promise<CardEncoder[]> {
    return acs.listCardEncoders(this.session);
  }
  encodeCard(input: { doorIds: string[]; encoderId: string; name: string } & Validity): Promise<{ ref: string; cardNumber: string }> {
    return acs.encodeCard(this.session, input);
  }
  /** An encoded card, off every door of its system at once (the door's id is not needed). */
  deleteCard(_lockId: string, ref: string): Promise<void> {
    return acs.deleteEncodedCard(this.session, ref);
  }
  async listCards(_lockId: string): Promise<CardOnLock[]> {
    return [];
  }
  setCardKeys(_lockId: string, _input: CardKeysTarget): Promise<void> {
    return notSupported('room-card keys');
  }
  denylistCard(_lockId: string, _entry: CardDenylistEntry): Promise<void> {
    return notSupported('card denylist');
  }
  undenylistCard(_lockId: string, _entry: CardDenylistEntry): Promise<void> {
    return notSupported('card denylist');
  }
  cardSettings(_lockId: string): Promise<LockCardSettings> {
    return notSupported('room-card settings');
  }

  // Faces
  faceFeatureData(_lockId: string, _photo: FacePhoto): Promise<string> {
    return notSupported('face module');
  }
  addFace(_lockId: string, _input: { featureData: string; name: string } & Validity): Promise<{ ref: string }> {
    return notSupported('face module');
  }
  deleteFace(_lockId: string, _ref: string): Promise<void> {
    return notSupported('face module');
  }
  async listFaces(_lockId: string): Promise<FaceOnLock[]> {
    return [];
  }

  // Records
  listRecords(lockId: string, range: { from: Date; to: Date }): Promise<LockRecord[]> {
    return records.listRecords(this.session, lockId, range);
  }
}
