import { toAcceptedJson } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { TPrisma } from '../../db/client';
import type { Actor, ServiceContext } from '../../context';
import { gatherAudit, type AuditRow } from '../../db/events';

type Db = TPrisma | Prisma.TransactionClient;

export interface AuditEntry {
  action: string;
  hotelId?: number | null;
  /** Defaults to the actor's account; set it for sign-in events, where there is no actor yet. */
  accountId?: number | null;
  entityType?: string;
  entityId?: string | number;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
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
    ip: ctx.meta.ip,
    userAgent: ctx.meta.userAgent?.slice(0, 512) ?? null,
    requestId: ctx.meta.requestId,
    channel: ctx.meta.channel ?? (ctx.meta.job ? 'job' : null),
    actorJob: accountId ? null : (ctx.meta.job ?? null),
    createdAt: new Date(),
  };
  // In a transaction of `transaction()`, written with its events as its work ends (one statement for them all).
  if (gatherAudit(db, data)) return;
  await db.auditLog.create({ data });
}
