import { LockProviderError, type CardEncoder, type LockCapabilities, type LockSummary, type Validity } from '../provider';
import { readAcsCredential, readAcsEntrance, readAcsSystem, readActionAttempt } from './answers';
import type { SeamSession } from './session';

/**
 * Hotel card systems through Seam (`acs`, docs/seam.md "Card systems"): ASSA ABLOY Visionline and
 * Vostio, Salto Space, dormakaba Community and Ambiance. A system's entrances are the hotel's
 * doors (each one a lock of the console that takes the system's cards and nothing else); a card is
 * a user of the system with one card credential for the doors it opens, encoded at the desk on one
 * of the system's encoders. Seam's fake has no credentials nor encoders: OUR layer adds them
 * (apps/server/src/test/seam-fake-acs.mjs).
 */

/** The systems whose cards are encoded at the desk (Seam's `system_type`); others (Brivo, Alta, PTI) have no doors here. */
export const ENCODED_CARD_SYSTEMS: ReadonlySet<string> = new Set([
  'visionline_system',
  'assa_abloy_vostio',
  'salto_space_system',
  'dormakaba_community_site',
  'dormakaba_ambiance_site',
]);

/** A card-system door takes the system's cards and nothing else, and reports no status. */
const DOOR_CAPABILITIES: LockCapabilities = {
  keypad: false,
  cardReader: false,
  fingerprint: false,
  faceModule: false,
  remoteUnlock: false,
  doorSensor: false,
  onlinePasscodes: false,
  offlinePasscodes: false,
  keypadWithoutZero: false,
  backupCodePool: false,
  offlineFirstUse: false,
  encodedCards: true,
};

/** The workspace's card systems whose cards are encoded at the desk (acs/systems/list). */
async function encodedSystems(s: SeamSession): Promise<string[]> {
  const systems = (await s.call('acs/systems/list', 'lock', (seam) => seam.acs.systems.list({}))) as unknown[];
  return systems
    .map(readAcsSystem)
    .filter((system) => system.acsSystemId !== '' && ENCODED_CARD_SYSTEMS.has(system.systemType))
    .map((system) => system.acsSystemId);
}

/** Each such system's doors (acs/entrances/list), as locks. A workspace without a card system costs one call. */
export async function listCardSystemDoors(s: SeamSession): Promise<LockSummary[]> {
  const doors: LockSummary[] = [];
  for (const systemId of await encodedSystems(s)) {
    const entrances = await s.all('acs/entrances/list', 'lock', (seam) => seam.acs.entrances.list({ acs_system_id: systemId }));
    for (const e of entrances.map(readAcsEntrance)) {
      if (e.acsEntranceId === '') continue;
      doors.push({
        lockId: e.acsEntranceId,
        name: e.displayName,
        alias: '',
        mac: '',
        battery: null,
        hasGateway: false,
        capabilities: { ...DOOR_CAPABILITIES },
        building: '',
        floor: '',
      });
    }
  }
  return doors;
}

/** The encoders of the workspace's card systems (acs/encoders/list). */
export async function listCardEncoders(s: SeamSession): Promise<CardEncoder[]> {
  const systems = await encodedSystems(s);
  if (systems.length === 0) return [];
  const encoders = await s.all('acs/encoders/list', 'lock', (seam) => seam.acs.encoders.list({ acs_system_ids: systems }));
  return encoders
    .map((v) => {
      const e = (v ?? {}) as Record<string, unknown>;
      return {
        encoderId: typeof e.acs_encoder_id === 'string' ? e.acs_encoder_id : '',
        name: typeof e.display_name === 'string' ? e.display_name : '',
        cardSystemId: typeof e.acs_system_id === 'string' ? e.acs_system_id : '',
      };
    })
    .filter((e) => e.encoderId !== '' && e.cardSystemId !== '');
}

/** The ref of an encoded card: its card system user and its credential (Seam ids have no '/'). */
const refOf = (userId: string, credentialId: string) => `${userId}/${credentialId}`;
const userOfRef = (ref: string) => ref.split('/')[0] ?? '';

/**
 * A card for `doorIds` (entrances of one system) encoded on `encoderId`: a user of the system
 * named for the card's holder with the card's period, one card credential for the doors, then
 * acs/encoders/encode_credential, waited for (the desk is holding the card). When the encoding
 * fails, the user is deleted (with its credential): no card the desk does not have is left in the
 * system. The encoder's refusals: `no_card_on_encoder`, `card_not_encodable`, `encoding_interrupted`,
 * `card_system_offline`.
 */
export async function encodeCard(
  s: SeamSession,
  input: { doorIds: string[]; encoderId: string; name: string } & Validity,
): Promise<{ ref: string; cardNumber: string }> {
  if (input.doorIds.length === 0) throw new LockProviderError('invalid_parameter', undefined, 'a card opens at least one door');
  if (input.endAt === null) throw new LockProviderError('invalid_parameter', undefined, 'a card system card needs an end');
  const encoder = (await s.call('acs/encoders/get', 'lock', (seam) => seam.acs.encoders.get({ acs_encoder_id: input.encoderId }))) as Record<string, unknown>;
  const systemId = typeof encoder?.acs_system_id === 'string' ? encoder.acs_system_id : '';
  const period = { starts_at: input.startAt.toISOString(), ends_at: input.endAt.toISOString() };
  const user = (await s.call('acs/users/create', 'credential', (seam) =>
    seam.acs.users.create({ acs_system_id: systemId, full_name: input.name || 'Guest', access_schedule: period }),
  )) as Record<string, unknown>;
  const userId = typeof user?.acs_user_id === 'string' ? user.acs_user_id : '';
  if (userId === '') throw new LockProviderError('provider_error', undefined, 'acs/users/create answered no user');
  try {
    const credential = readAcsCredential(
      await s.call('acs/credentials/create', 'credential', (seam) =>
        seam.acs.credentials.create({ acs_user_id: userId, access_method: 'card', allowed_acs_entrance_ids: input.doorIds, ...period }),
      ),
    );
    const attempt = readActionAttempt(
      await s.call('acs/encoders/encode_credential', 'lock', (seam) =>
        seam.acs.encoders.encodeCredential({ acs_encoder_id: input.encoderId, acs_credential_id: credential.acsCredentialId }),
      ),
    );
    const done = await s.waitForActionAttempt(attempt);
    const encoded = readAcsCredential(done.result);
    return { ref: refOf(userId, credential.acsCredentialId), cardNumber: encoded.cardNumber || credential.acsCredentialId };
  } catch (error) {
    await deleteEncodedCard(s, refOf(userId, '')).catch(() => undefined);
    throw error;
  }
}

/** Takes an encoded card off every door it opens: its user deleted, with its credential. Gone already: `credential_not_found`. */
export async function deleteEncodedCard(s: SeamSession, ref: string): Promise<void> {
  const userId = userOfRef(ref);
  if (userId === '') throw new LockProviderError('credential_not_found', undefined, 'not an encoded card');
  await s.call('acs/users/delete', 'credential', (seam) => seam.acs.users.delete({ acs_user_id: userId }));
}
