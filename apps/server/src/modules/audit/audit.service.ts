import { toAcceptedJson, type TAuditAction, type TAuditEntityType, type TAuditNames } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { TPrisma } from '../../db/client';
import type { Actor, ServiceContext } from '../../context';
import { gatherAudit, type AuditRow } from '../../db/events';

type Db = TPrisma | Prisma.TransactionClient;

export interface AuditEntry {
  /** One of AUDIT_ACTIONS, each labelled in every locale. */
  action: TAuditAction;
  hotelId?: number | null;
  /** Defaults to the actor's account; set it for sign-in events, where there is no actor yet. */
  accountId?: number | null;
  entityType?: TAuditEntityType;
  entityId?: string | number;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
  /**
   * The target's names when they may not be read later (`AuditLog.targetNames`): an entity this
   * entry deletes, a calendar feed, an access rule's group. Other targets are named from their rows.
   */
  names?: TAuditNames;
}

/** Names as stored: the non-empty ones, trimmed to a length a label shows (nothing when none is left). */
function storedNames(names: TAuditNames | undefined): Prisma.InputJsonValue | undefined {
  if (!names) return undefined;
  const kept = Object.entries(names).flatMap(([key, value]): [string, unknown][] => {
    if (typeof value === 'string') return value.trim() === '' ? [] : [[key, value.trim().slice(0, 100)]];
    return key === 'nameParams' && typeof value === 'object' && value !== null ? [[key, value]] : [];
  });
  return kept.length > 0 ? toAcceptedJson(Object.fromEntries(kept) as Prisma.InputJsonValue) : undefined;
}

/**
 * Appends one entry to the audit log. Pass the transaction client when the change it records is
 * made in a transaction, so both commit or neither does.
 */
export async function recordAudit(db: Db, ctx: ServiceContext & { actor?: Actor }, entry: AuditEntry): Promise<void> {
  const apiKeyId = ctx.actor?.apiKeyId ?? null;
  // An API key acts as itself: the member who made it is not the actor.
  const accountId = entry.accountId !== undefined ? entry.accountId : apiKeyId !== null ? null : (ctx.actor?.accountId ?? null);
  const data: AuditRow = {
    hotelId: entry.hotelId !== undefined ? entry.hotelId : (ctx.actor?.hotelId ?? null),
    actorType: accountId ? 'account' : apiKeyId !== null ? 'api_key' : ctx.meta.job ? 'job' : ctx.meta.channel === 'key_page' ? 'key_link' : 'anonymous',
    actorAccountId: accountId,
    actorApiKeyId: apiKeyId,
    action: entry.action,
    entityType: entry.entityType ?? null,
    entityId: entry.entityId !== undefined ? String(entry.entityId) : null,
    // Requests hold only accepted text (decision 025); what came from elsewhere (the lock cloud,
    // a file) is made acceptable here, as PostgreSQL's JSON refuses NUL and unpaired surrogates.
    before: entry.before === undefined ? undefined : toAcceptedJson(entry.before),
    after: entry.after === undefined ? undefined : toAcceptedJson(entry.after),
    // A job has no address (its context says `job`): the viewer shows none.
    ip: ctx.meta.job ? null : ctx.meta.ip,
    userAgent: ctx.meta.userAgent?.slice(0, 512) ?? null,
    requestId: ctx.meta.requestId,
    channel: ctx.meta.channel ?? (ctx.meta.job ? 'job' : null),
    actorJob: accountId ? null : (ctx.meta.job ?? null),
    actorNames: accountId || !ctx.meta.job ? undefined : storedNames(ctx.meta.actorNames),
    targetNames: storedNames(entry.names),
    createdAt: new Date(),
  };
  // In a transaction of `transaction()`, written with its events as its work ends (one statement for them all).
  if (gatherAudit(db, data)) return;
  await db.auditLog.create({ data });
}
