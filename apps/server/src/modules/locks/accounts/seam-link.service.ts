import { ZLockAccountIdInput, ZLockAccountSeamLinkStateInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../../context';
import { AppError } from '../../../errors';
import { LockProviderError, type LockProvider } from '../../../infra/locks/provider';
import { requirePermission, requireSession } from '../../../permissions';
import { recordAudit } from '../../audit/audit.service';
import { ACCOUNT_ROW_SELECT } from '../../base/lock-ref';
import { usableProvider } from '../../lock-cloud/account-provider';
import { lockFailed } from '../../base/lock-failure';

/**
 * Linking a lock brand's account into a hotel's Seam workspace (docs/seam.md, "Linking a lock
 * account"): Seam's connect webview, a page of Seam's where the owner signs in to August, Yale,
 * Schlage, igloohome or any brand Seam reaches. The console asks Seam for the page, the owner
 * completes it in another tab, the console asks Seam whether it was completed, and then gets the
 * workspace's locks as always (import.service.ts). For owners and administrators, signed in, on a
 * connected Seam account of their hotel; the page's id is checked with Seam against the workspace.
 */

async function seamAccount(ctx: AuthedContext, accountId: number): Promise<{ id: number; provider: LockProvider }> {
  requireSession(ctx.actor);
  requirePermission(ctx.actor, 'lock.accounts');
  const account = await ctx.deps.prisma.lockAccount.findFirst({
    where: { id: accountId, hotelId: ctx.actor.hotelId, kind: 'seam' },
    select: ACCOUNT_ROW_SELECT,
  });
  if (!account) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.notFound' });
  try {
    return { id: account.id, provider: usableProvider(ctx.deps, account) };
  } catch (error) {
    throw failed(error);
  }
}

/** Seam's refusal as the clerk's error, with its reason. */
function failed(error: unknown): unknown {
  if (!(error instanceof LockProviderError)) return error;
  return lockFailed(error, 'lockAccounts.link.failed');
}

/** A page of Seam's to link a lock brand's account; Seam sends the owner back to the lock accounts page (when the install says where it is). */
export async function startSeamLink(ctx: AuthedContext, raw: z.input<typeof ZLockAccountIdInput>): Promise<{ linkId: string; url: string }> {
  const { accountId } = ZLockAccountIdInput.parse(raw);
  const { id, provider } = await seamAccount(ctx, accountId);
  if (!provider.linkAccount) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.notFound' });
  const base = ctx.deps.config.locks.publicUrl?.replace(/\/+$/, '');
  let link: { linkId: string; url: string };
  try {
    link = await provider.linkAccount(base ? `${base}/lockAccounts` : null);
  } catch (error) {
    throw failed(error);
  }
  // The page is Seam's: nothing of the hotel's changes until its locks are got; the request is audited.
  await recordAudit(ctx.deps.prisma, ctx, {
    hotelId: ctx.actor.hotelId,
    action: 'lockAccount.seamLink',
    entityType: 'LockAccount',
    entityId: id,
    after: { linkId: link.linkId },
  });
  return link;
}

/** Whether the owner completed Seam's page (`linked`: its locks can be got now), gave it up, or not yet. */
export async function seamLinkState(
  ctx: AuthedContext,
  raw: z.input<typeof ZLockAccountSeamLinkStateInput>,
): Promise<{ state: 'pending' | 'linked' | 'failed' }> {
  const input = ZLockAccountSeamLinkStateInput.parse(raw);
  const { provider } = await seamAccount(ctx, input.accountId);
  if (!provider.linkState) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.notFound' });
  try {
    return { state: await provider.linkState(input.linkId) };
  } catch (error) {
    // Another workspace's page, or none: not found.
    if (error instanceof LockProviderError && (error.code === 'lock_not_found' || String(error.vendorCode).endsWith('not_found')))
      throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.link.notFound' });
    throw failed(error);
  }
}
