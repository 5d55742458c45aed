import { ZLockAccountConnectSeamInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../../context';
import { isUniqueViolation } from '../../../db/errors';
import { recordEvent } from '../../../db/events';
import { transaction } from '../../../db/transaction';
import { AppError } from '../../../errors';
import { LockProviderError } from '../../../infra/locks/provider';
import { requirePermission, requireSession } from '../../../permissions';
import { recordAudit } from '../../audit/audit.service';
import { afterCredentialChange } from '../../credentials/delivery';
import { noteLockCall } from '../../lock-cloud/call-budget';
import { sealSeamKey } from '../../lock-cloud/seam-key';
import { lockFailed } from '../../base/lock-failure';

/**
 * A hotel's Seam workspace as a lock account (docs/seam.md, "Lock accounts"): connected with the
 * workspace's API key, which is checked by one call to Seam (workspaces/get) before anything is
 * kept, then sealed in the account (modules/lock-cloud/seam-key.ts) and never answered back. The
 * workspace is the account: its id is the account's `username`, one account per workspace and
 * hotel (the unique key refuses a second, two connects at once included). Connecting a workspace
 * whose account is no longer connected (disconnected, or its key refused) connects it again with
 * the new key. Its locks are then got and paired as any account's (import.service.ts,
 * pairing.service.ts); its adapter is the lock cloud's for the kind `seam` (infra/locks).
 */

const SEAM = 'seam';

/** The workspace a key opens; a key Seam refuses is said on the field, anything else as Seam's failure. */
async function workspaceOf(ctx: AuthedContext, apiKey: string) {
  const cloud = ctx.deps.locks;
  if (!cloud) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  try {
    return await cloud.seamWorkspace(apiKey);
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    if (error.code === 'auth_failed' || error.code === 'permission_denied')
      throw new AppError('VALIDATION', { messageKey: 'lockAccounts.errors.wrongApiKey', fields: { apiKey: 'lockAccounts.errors.wrongApiKey' } });
    throw lockFailed(error, 'lockAccounts.errors.connectFailed');
  }
}

export async function connectSeamLockAccount(ctx: AuthedContext, raw: z.input<typeof ZLockAccountConnectSeamInput>): Promise<{ id: number }> {
  // Owners and administrators, signed in (never an API key): as a TTLock account.
  requireSession(ctx.actor);
  requirePermission(ctx.actor, 'lock.accounts');
  const input = ZLockAccountConnectSeamInput.parse(raw);
  const hotelId = ctx.actor.hotelId;
  const workspace = await workspaceOf(ctx, input.apiKey);
  const key = { apiKey: input.apiKey, sandbox: workspace.sandbox };
  const label = input.label || workspace.name;
  const conflict = () => new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.alreadyConnected', params: { username: label || workspace.workspaceId } });

  const known = await ctx.deps.prisma.lockAccount.findFirst({
    where: { hotelId, provider: SEAM, username: workspace.workspaceId },
    select: { id: true, hotelId: true, state: true },
  });
  if (known?.state === 'connected') throw conflict();
  if (known) {
    // Connected again with the key given now (the old one was dropped or refused).
    const { count } = await transaction(ctx.deps, async (tx) => {
      const updated = await tx.lockAccount.updateMany({
        where: { id: known.id, hotelId, state: { not: 'connected' } },
        data: {
          state: 'connected',
          lastError: null,
          limitedUntil: null,
          tokensSealed: sealSeamKey(ctx.deps.config.cardKeySecret, known, key),
          connectedAt: new Date(),
        },
      });
      if (updated.count === 0) return updated;
      await recordAudit(tx, ctx, {
        action: 'lockAccount.reconnect',
        entityType: 'LockAccount',
        entityId: known.id,
        before: { state: known.state },
        after: { state: 'connected' },
      });
      await recordEvent(tx, { hotelId, kind: 'lock.changed' });
      return updated;
    });
    // Another connect of the same workspace just did it.
    if (count === 0) throw conflict();
    noteLockCall(ctx.deps, known.id);
    ctx.deps.locks?.forget(known.id);
    await afterCredentialChange(ctx.deps, hotelId);
    return { id: known.id };
  }

  try {
    const id = await transaction(ctx.deps, async (tx) => {
      const created = await tx.lockAccount.create({
        data: { hotelId, provider: SEAM, kind: SEAM, username: workspace.workspaceId, label, state: 'connected', connectedAt: new Date() },
        select: { id: true, hotelId: true },
      });
      // Sealed bound to the account's own row: it needs its id.
      await tx.lockAccount.update({ where: { id: created.id }, data: { tokensSealed: sealSeamKey(ctx.deps.config.cardKeySecret, created, key) } });
      await recordAudit(tx, ctx, {
        action: 'lockAccount.connect',
        hotelId,
        entityType: 'LockAccount',
        entityId: created.id,
        after: { username: workspace.workspaceId, kind: SEAM, label },
      });
      await recordEvent(tx, { hotelId, kind: 'lock.changed' });
      return created.id;
    });
    // The key's check was the account's first call.
    noteLockCall(ctx.deps, id);
    return { id };
  } catch (error) {
    // The same workspace connected twice at once: one wins, and its calls count this check too.
    if (isUniqueViolation(error)) {
      const winner = await ctx.deps.prisma.lockAccount.findFirst({ where: { hotelId, provider: SEAM, username: workspace.workspaceId }, select: { id: true } });
      if (winner) noteLockCall(ctx.deps, winner.id);
      throw conflict();
    }
    throw error;
  }
}
