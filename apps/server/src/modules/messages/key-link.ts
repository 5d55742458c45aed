import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_LINK_TOKEN, keyPagePath, ZKeyLinkStayInput } from '@console/shared';
import type { TKeyLinkDto } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext, Deps } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { seal, unseal, type SealPurpose } from '../../infra/seal';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { effectiveState, findStay } from '../base/stay-dto';
import { recordEvent } from '../../db/events';

/**
 * The guest's key link of a visit (issue 20 §4, docs/key-page.md, decision 031). The token is 256
 * random bits; the database keeps its SHA-256 (what a request is looked up by) and the token sealed
 * under CARD_KEY_SECRET (so the console can show the link and a message can carry it), never the
 * token in the clear. One live link per visit (the partial index KeyLink_live_key); it follows the
 * visit across room changes and lives as long as the visit's current stay: computed, never stored.
 */

const PURPOSE: SealPurpose = { salt: 'key-link', info: 'guest key page token v1' };
const boundTo = (hotelId: number, visitStayId: number) => `key-link:${hotelId}:${visitStayId}`;

export function hashKeyToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a stored hash is the token's, compared in constant time. */
export function keyTokenMatches(token: string, tokenHash: string): boolean {
  const a = Buffer.from(hashKeyToken(token), 'hex');
  const b = Buffer.from(tokenHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The page's absolute address (PUBLIC_URL), or null when the install has none. */
export function keyPageUrl(deps: Pick<Deps, 'config'>, token: string): string | null {
  const base = deps.config.locks.publicUrl?.replace(/\/+$/, '');
  return base ? `${base}${keyPagePath(token)}` : null;
}

type LinkRow = { id: number; hotelId: number; visitStayId: number; sealedToken: string; createdAt: Date };
const LINK_SELECT = { id: true, hotelId: true, visitStayId: true, sealedToken: true, createdAt: true } as const;

function tokenOf(deps: Pick<Deps, 'config'>, link: LinkRow): string | null {
  const token = unseal(deps.config.cardKeySecret, PURPOSE, boundTo(link.hotelId, link.visitStayId), link.sealedToken);
  return token && KEY_LINK_TOKEN.test(token) ? token : null;
}

async function insertLink(db: Tx | Deps['prisma'], deps: Pick<Deps, 'config'>, hotelId: number, visitStayId: number, accountId: number | null) {
  const token = randomBytes(32).toString('base64url');
  const row = await db.keyLink.create({
    data: {
      hotelId,
      visitStayId,
      tokenHash: hashKeyToken(token),
      sealedToken: seal(deps.config.cardKeySecret, PURPOSE, boundTo(hotelId, visitStayId), token),
      createdByAccountId: accountId,
    },
    select: LINK_SELECT,
  });
  return { row, token };
}

/**
 * The live link of a stay's visit and its token, made now when there is none (a guest message, the
 * stay getting its keys). It takes the visit's lock first, as `regenerateKeyLink` does: two callers
 * at once make one link (the second reads the first's), and a link made while the clerk makes a new
 * one never deadlocks with it (an insert's unique entry is written before its foreign key waits).
 */
export async function ensureKeyLink(
  deps: Pick<Deps, 'prisma' | 'config' | 'log' | 'redis' | 'key'>,
  hotelId: number,
  stayId: number,
): Promise<{ token: string; link: LinkRow } | null> {
  const stay = await deps.prisma.stay.findFirst({ where: { id: stayId, hotelId }, select: { visitStayId: true } });
  if (!stay) return null;
  const live = (db: Tx | Deps['prisma']) => db.keyLink.findFirst({ where: { hotelId, visitStayId: stay.visitStayId, revokedAt: null }, select: LINK_SELECT });
  const found = await live(deps.prisma);
  if (found) {
    const token = tokenOf(deps, found);
    return token ? { token, link: found } : null;
  }
  return transaction(deps, async (tx) => {
    await lockVisit(tx, hotelId, stay.visitStayId);
    const other = await live(tx);
    if (other) {
      const token = tokenOf(deps, other);
      return token ? { token, link: other } : null;
    }
    const made = await insertLink(tx, deps, hotelId, stay.visitStayId, null);
    return { token: made.token, link: made.row };
  });
}

/** The visit's current stay: its newest (a room change continues a visit in a new stay). */
export async function currentStayOfVisit(db: Deps['prisma'] | Tx, hotelId: number, visitStayId: number) {
  return db.stay.findFirst({
    where: { hotelId, visitStayId },
    orderBy: { id: 'desc' },
    select: { id: true, status: true, checkInAt: true, expectedCheckOutAt: true, awaitsArrival: true, noShowAt: true, roomId: true },
  });
}

async function linkDto(ctx: AuthedContext, link: LinkRow, stayId: number): Promise<TKeyLinkDto> {
  const token = tokenOf(ctx.deps, link) ?? '';
  const current = await currentStayOfVisit(ctx.deps.prisma, link.hotelId, link.visitStayId);
  const state = current ? effectiveState(current) : 'ended';
  return {
    stayId,
    url: keyPageUrl(ctx.deps, token),
    path: keyPagePath(token),
    createdAt: link.createdAt.toISOString(),
    expiresAt: (current?.expectedCheckOutAt ?? link.createdAt).toISOString(),
    valid: state === 'reserved' || state === 'in_house',
  };
}

/**
 * Holds the visit's first stay for the transaction. Every writer of a visit's links takes it first
 * (`ensureKeyLink`, `regenerateKeyLink`, `revokeKeyLink`), so they queue: "revoke and make a new one"
 * never meets a third link, and never deadlocks with a link being made.
 */
async function lockVisit(tx: Tx, hotelId: number, visitStayId: number): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Stay" WHERE "hotelId" = ${hotelId} AND "id" = ${visitStayId} FOR UPDATE`;
}

/** `keyPage.get`: the stay's live key link, or null (none made yet, or revoked). */
export async function getKeyLink(ctx: AuthedContext, raw: z.input<typeof ZKeyLinkStayInput>): Promise<{ link: TKeyLinkDto | null }> {
  requirePermission(ctx.actor, 'stay.manage');
  const { stayId } = ZKeyLinkStayInput.parse(raw);
  const stay = await findStay(ctx, stayId);
  const link = await ctx.deps.prisma.keyLink.findFirst({
    where: { hotelId: ctx.actor.hotelId, visitStayId: stay.visitStayId, revokedAt: null },
    select: LINK_SELECT,
  });
  return { link: link ? await linkDto(ctx, link, stay.id) : null };
}

/** `keyPage.regenerate`: revokes the visit's live link (if any) and makes a new one, audited. */
export async function regenerateKeyLink(ctx: AuthedContext, raw: z.input<typeof ZKeyLinkStayInput>): Promise<{ link: TKeyLinkDto }> {
  requirePermission(ctx.actor, 'stay.manage');
  const { stayId } = ZKeyLinkStayInput.parse(raw);
  const stay = await findStay(ctx, stayId);
  const row = await transaction(ctx.deps, async (tx) => {
    await lockVisit(tx, ctx.actor.hotelId, stay.visitStayId);
    const revoked = await tx.keyLink.updateMany({
      where: { hotelId: ctx.actor.hotelId, visitStayId: stay.visitStayId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    const made = await insertLink(tx, ctx.deps, ctx.actor.hotelId, stay.visitStayId, ctx.actor.accountId);
    await recordAudit(tx, ctx, {
      action: 'keyPage.regenerate',
      entityType: 'Stay',
      entityId: stay.id,
      after: { keyLinkId: made.row.id, revoked: revoked.count },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed', roomIds: [stay.roomId], stayId: stay.id });
    return made.row;
  });
  return { link: await linkDto(ctx, row, stay.id) };
}

/** `keyPage.revoke`: the visit's live link stops opening the page at once, audited. */
export async function revokeKeyLink(ctx: AuthedContext, raw: z.input<typeof ZKeyLinkStayInput>): Promise<{ revoked: boolean }> {
  requirePermission(ctx.actor, 'stay.manage');
  const { stayId } = ZKeyLinkStayInput.parse(raw);
  const stay = await findStay(ctx, stayId);
  return transaction(ctx.deps, async (tx) => {
    await lockVisit(tx, ctx.actor.hotelId, stay.visitStayId);
    const revoked = await tx.keyLink.updateMany({
      where: { hotelId: ctx.actor.hotelId, visitStayId: stay.visitStayId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await recordAudit(tx, ctx, { action: 'keyPage.revoke', entityType: 'Stay', entityId: stay.id, after: { revoked: revoked.count } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed', roomIds: [stay.roomId], stayId: stay.id });
    return { revoked: revoked.count > 0 };
  });
}
