import { SeamWebhook } from '@seamapi/webhook';
import { SEAM_ID_PATTERN, ZLockAccountSeamWebhookInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext, Deps } from '../../../context';
import { recordEvent } from '../../../db/events';
import { transaction } from '../../../db/transaction';
import { AppError } from '../../../errors';
import { LockProviderError } from '../../../infra/locks/provider';
import { requirePermission, requireSession } from '../../../permissions';
import { recordAudit } from '../../audit/audit.service';
import { LOCK_REF_SELECT } from '../../base/lock-ref';
import { askAcceptedNow, deliveryJobId, kickDeliveries, markCredentialEvent, markRefEvent } from '../../credentials/delivery';
import { providerForLock } from '../../lock-cloud/account-provider';
import { openSeamWebhookSecret, sealSeamWebhookSecret } from '../../lock-cloud/seam-key';
import { refreshOneLock } from '../lock-status';
import { ingestLockRecords } from '../records';

/**
 * A Seam workspace's webhook (docs/seam.md, "Webhooks"): the hotel registers the console's address
 * for its account in Seam's console and gives its signing secret here; Seam then tells the console
 * at once what it would otherwise learn only by asking. Each event is verified with Seam's own
 * library (`SeamWebhook`, Svix's signature over the raw body, its time checked) and is only a
 * prompt to look now, through the paths the console already has: a device's event reads the lock's
 * status (online, battery), a door's opening reads that moment's records, a code's event runs its
 * delivery job now instead of at its next question. So an event received twice, late or out of
 * order changes nothing twice, and nothing is believed that Seam's API would not say.
 */

/** Owners and administrators set (or take off, with an empty text) the signing secret of a Seam account of their hotel. */
export async function setSeamWebhookSecret(ctx: AuthedContext, raw: z.input<typeof ZLockAccountSeamWebhookInput>): Promise<{ configured: boolean }> {
  requireSession(ctx.actor);
  requirePermission(ctx.actor, 'lock.accounts');
  const input = ZLockAccountSeamWebhookInput.parse(raw);
  const hotelId = ctx.actor.hotelId;
  return transaction(ctx.deps, async (tx) => {
    const account = await tx.lockAccount.findFirst({ where: { id: input.accountId, hotelId, kind: 'seam' }, select: { id: true, hotelId: true } });
    if (!account) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.notFound' });
    const sealed = input.secret ? sealSeamWebhookSecret(ctx.deps.config.cardKeySecret, account, input.secret) : null;
    await tx.lockAccount.update({ where: { id: account.id }, data: { webhookSecretSealed: sealed, ...(sealed ? {} : { webhookEventAt: null }) } });
    await recordAudit(tx, ctx, {
      hotelId,
      action: 'lockAccount.seamWebhook',
      entityType: 'LockAccount',
      entityId: account.id,
      // Never the secret: whether one is set.
      after: { configured: sealed !== null },
    });
    await recordEvent(tx, { hotelId, kind: 'lock.changed' });
    return { configured: sealed !== null };
  });
}

/** What an event of Seam's says, as far as the console reads it (Seam's published event schema). */
interface SeamWebhookEvent {
  event_type?: unknown;
  workspace_id?: unknown;
  device_id?: unknown;
  access_code_id?: unknown;
  occurred_at?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
/** An id or a type as Seam writes them (SEAM_ID_PATTERN), else nothing: a signed event with a NUL in an id once answered 500. */
const name = (v: unknown) => (typeof v === 'string' && SEAM_ID_PATTERN.test(v) ? v : '');
/** How far around a door's event its records are read (the lock's clock and Seam's differ a little). */
const RECORD_WINDOW_MS = 2 * 60_000;
/** How stale the account's "last event" may be before an event writes it again. */
const EVENT_AT_EVERY_MS = 60_000;

/**
 * One delivery of a Seam webhook to `/api/seam/webhooks/<account id>`: an account of no hotel, or
 * without a secret, is not found; a signature that does not verify is refused (Svix then retries:
 * nothing is lost by refusing). What the event concerns is looked at now; an event about nothing
 * the console has (another workspace's device, a code of no credential) is answered and ignored.
 */
export async function receiveSeamWebhook(deps: Deps, accountId: number, body: string, headers: Record<string, string>): Promise<{ handled: string }> {
  const account = await deps.prisma.lockAccount.findFirst({
    where: { id: accountId, kind: 'seam', webhookSecretSealed: { not: null } },
    select: { id: true, hotelId: true, username: true, webhookSecretSealed: true, webhookEventAt: true },
  });
  const secret = account && openSeamWebhookSecret(deps.config.cardKeySecret, account, account.webhookSecretSealed);
  if (!account || !secret) throw new AppError('NOT_FOUND');
  let event: SeamWebhookEvent;
  try {
    event = new SeamWebhook(secret).verify(body, headers) as SeamWebhookEvent;
  } catch {
    throw new AppError('UNAUTHENTICATED');
  }
  // A workspace's events only: the secret is the workspace's own, the id says it again.
  if (name(event.workspace_id) !== account.username) return { handled: 'other_workspace' };
  // When the last event came (the records cycle reads doors once a day while they come): written
  // at most once a minute, not at every event of a busy day.
  const now = Date.now();
  const stale = new Date(now - EVENT_AT_EVERY_MS);
  if (!account.webhookEventAt || account.webhookEventAt < stale)
    await deps.prisma.lockAccount.updateMany({
      where: { id: account.id, OR: [{ webhookEventAt: null }, { webhookEventAt: { lt: stale } }] },
      data: { webhookEventAt: new Date(now) },
    });
  const type = name(event.event_type);
  if (type.startsWith('access_code.')) return { handled: await codeNow(deps, account.hotelId, name(event.access_code_id), type) };
  const deviceId = name(event.device_id);
  const lock = deviceId
    ? await deps.prisma.lock.findFirst({
        where: { hotelId: account.hotelId, accountId: account.id, provider: 'seam', providerLockId: deviceId, goneAt: null },
        select: LOCK_REF_SELECT,
      })
    : null;
  try {
    if (!lock) return { handled: 'unknown_device' };
    if (type === 'lock.unlocked' || type === 'lock.access_denied') {
      const at = Date.parse(text(event.occurred_at));
      const around = Number.isNaN(at) ? Date.now() : at;
      const provider = await providerForLock(deps, lock);
      const records = await provider.listRecords(lock.providerLockId, { from: new Date(around - RECORD_WINDOW_MS), to: new Date(around + RECORD_WINDOW_MS) });
      const stored = await ingestLockRecords(deps, records, { callback: true, provider: 'seam' });
      return { handled: `records:${stored.stored}` };
    }
    if (type.startsWith('device.') || type.startsWith('lock.')) {
      await refreshOneLock(deps, lock);
      return { handled: 'status' };
    }
    return { handled: 'ignored' };
  } catch (error) {
    // Seam could not be asked now (its outage, the call limit): the cycles will, in their time.
    if (!(error instanceof LockProviderError)) throw error;
    deps.log.warn({ accountId, type, code: error.code }, 'a Seam webhook could not be followed now');
    return { handled: `later:${error.code}` };
  }
}

/**
 * A code's event: Seam says it set the code: the hotel's password it holds under that id is asked
 * about now, here (`askAcceptedNow`); any other event of a code, or a code not set after all, has
 * its delivery job run now (its delayed question brought forward). A shared door's copy is not a
 * password: its cycle asks in its time.
 */
async function codeNow(deps: Deps, hotelId: number, accessCodeId: string, type: string): Promise<string> {
  if (!accessCodeId) return 'ignored';
  const find = () =>
    deps.prisma.lockPassword.findMany({
      where: { hotelId, providerRef: accessCodeId },
      select: { id: true, roomId: true, version: true },
    });
  let passwords = await find();
  if (passwords.length === 0) {
    // Seam may tell of a code before the job that created it has stored its id (Seam set it at
    // once): kept for that job (`takeRefEvent`), and looked for once more, in case the job stored it
    // between the two (it then found no mark).
    await markRefEvent(deps, hotelId, accessCodeId);
    passwords = await find();
    if (passwords.length === 0) return 'kept';
  }
  for (const p of passwords) {
    if (type === 'access_code.set_on_device' && (await askAcceptedNow(deps, 'password', p.id))) continue;
    const job = await deps.queues.credential.getJob(deliveryJobId('password', p.id, p.version));
    if (job && (await job.isDelayed())) await job.promote();
    else {
      // Its job may be running still (Seam set the code moments after accepting it): it asks at once.
      await markCredentialEvent(deps, 'password', p.id);
      await kickDeliveries(deps, hotelId, { roomId: p.roomId });
    }
  }
  return `codes:${passwords.length}`;
}
