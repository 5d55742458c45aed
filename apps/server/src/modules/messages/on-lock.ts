import type { Deps } from '../../context';
import type { DeliveryJobData } from '../../jobs/payloads';
import { languageForGuest, loadMessageFacts } from './compose';
import { queueGuestMessages, type NewGuestMessage } from './queue';

/** Stays whose guest is told when a code reaches the lock: a reservation and a stay in the house. */
const TOLD_STAY_STATES = new Set(['reserved', 'in_house']);

/**
 * Called when the delivery engine recorded that a lock confirmed a credential (`on_lock`): a stay's
 * password is told to its guest by SMS (the guest's mobile) and e-mail (when the guest has one),
 * once per password, code and channel. Never throws: the delivery is done whatever happens here.
 */
export async function afterCredentialOnLock(deps: Deps, data: DeliveryJobData): Promise<void> {
  if (data.kind !== 'password') return;
  try {
    await tellGuestOfPassword(deps, data.id, data.version);
  } catch (error) {
    deps.log.error({ err: error, passwordId: data.id }, 'could not queue the guest messages of a confirmed password');
  }
}

export async function tellGuestOfPassword(deps: Deps, passwordId: number, version: number): Promise<number> {
  // The password, and whether any guest of its stay left a phone or an e-mail (many channels share
  // neither: then nobody is told, and nothing more is read), in one statement.
  const [password] = await deps.prisma.$queryRaw<
    { hotelId: number; stayId: number | null; code: string | null; deliveryState: string; version: number; doorLockId: number | null; reachable: boolean }[]
  >`
    SELECT p."hotelId", p."stayId", p."code", p."deliveryState"::text AS "deliveryState", p."version", p."doorLockId",
           EXISTS (SELECT 1 FROM "StayGuest" g WHERE g."stayId" = p."stayId" AND g."hotelId" = p."hotelId" AND (g."mobile" IS NOT NULL OR g."email" IS NOT NULL)) AS "reachable"
      FROM "LockPassword" p WHERE p."id" = ${passwordId}`;
  // A shared door's copy carries the room code the guest was told when it reached the room's lock.
  if (!password?.stayId || password.doorLockId !== null || !password.code || password.deliveryState !== 'on_lock' || password.version !== version) return 0;
  if (!password.reachable) return 0;
  const facts = await loadMessageFacts(deps, password.hotelId, password.stayId, passwordId);
  if (!facts?.guest || !TOLD_STAY_STATES.has(facts.stay.status)) return 0;
  const messages: NewGuestMessage[] = [];
  if (facts.guest.mobile) messages.push({ channel: 'sms', recipient: facts.guest.mobile });
  if (facts.guest.email) messages.push({ channel: 'email', recipient: facts.guest.email });
  if (!messages.length) return 0;
  const language = await languageForGuest(deps, password.hotelId, facts.guest.mobile);
  const rows = await queueGuestMessages(deps, {
    hotelId: password.hotelId,
    stayId: password.stayId,
    passwordId,
    code: password.code,
    language,
    trigger: 'on_lock',
    messages,
  });
  return rows.length;
}
