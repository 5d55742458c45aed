import { toAcceptedText, WEBHOOK_LIMITS, WEBHOOK_TEST_EVENT, webhookRetryDelay, type TEventIds } from '@console/shared';
import { DelayedError, type Job } from 'bullmq';
import { jobContext, type Deps } from '../../context';
import { transaction } from '../../db/transaction';
import { createGuardedFetch, OutboundError, type GuardedFetch } from '../../infra/guarded-fetch';
import type { WebhookJobData } from '../../jobs/queues';
import { recordAudit } from '../audit/audit.service';
import { saveDelivered } from './delivered';
import { resourceState } from './payload';
import { signedHeaders } from './signature';
import { signingSecrets } from './webhook.service';

/**
 * The guarded fetch of webhooks (infra/guarded-fetch.ts, decision 041: the feeds' guard), one per
 * choice of the install (OUTBOUND_PRIVATE_ADDRESSES): no private, loopback or own address unless allowed.
 */
const senders = { guarded: createGuardedFetch(), open: createGuardedFetch({ privateAddresses: true }) };
export const webhookSender = (deps: Pick<Deps, 'config'>): GuardedFetch => (deps.config.webhooks.privateAddresses ? senders.open : senders.guarded);

interface DeliveryRow {
  id: bigint;
  hotelId: number;
  eventId: bigint | null;
  messageId: string;
  kind: string;
  resource: string | null;
  ids: unknown;
  roomIds: number[];
  occurredAt: Date;
  status: string;
  attempts: number;
  endpointId: number;
  endpointHotelId: number;
  url: string;
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  failingSince: Date | null;
  earlier: boolean | null;
  earlierNextAttemptAt: Date | null;
}

/** Thrown to have BullMQ try the delivery again later (its attempt is logged already). */
export class WebhookRetry extends Error {
  constructor(readonly reason: string) {
    super(`webhook delivery will be retried: ${reason}`);
    this.name = 'WebhookRetry';
  }
}

export type WebhookOutcome = 'succeeded' | 'failed' | 'retrying' | 'skipped' | 'waiting';

/**
 * One attempt of a delivery (the `deliver` job): the message built now (the resource's current
 * state), signed with the endpoint's secrets, POSTed through the guarded fetch; the attempt and its
 * answer logged. A 2xx answer delivers it; anything else is retried with backoff (the same
 * webhook-id) until the attempts are spent, then failed. A delivery waits while an earlier one of
 * the same resource to the same endpoint is pending, so a receiver gets a resource's events in
 * order. An endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER_MS is disabled, and the
 * hotel told (an audit entry; the page shows why).
 */
export async function deliverWebhook(deps: Deps, job: Job<WebhookJobData>, token: string | undefined, sender = webhookSender(deps)): Promise<WebhookOutcome> {
  const id = BigInt(job.data.deliveryId);
  // The delivery, its endpoint (with its sealed secrets) and the first earlier delivery of the same
  // resource to it still pending, in one statement.
  const [row] = await deps.prisma.$queryRaw<DeliveryRow[]>`
    SELECT d."id", d."hotelId", d."eventId", d."messageId", d."kind", d."resource", d."ids", d."roomIds", d."occurredAt", d."status", d."attempts",
           w."id" AS "endpointId", w."hotelId" AS "endpointHotelId", w."url", w."enabled", w."secret", w."previousSecret", w."previousSecretUntil",
           w."failingSince", earlier."found" AS "earlier", earlier."nextAttemptAt" AS "earlierNextAttemptAt"
      FROM "WebhookDelivery" d
      JOIN "WebhookEndpoint" w ON w."id" = d."endpointId"
      LEFT JOIN LATERAL (
        SELECT true AS "found", e."nextAttemptAt" FROM "WebhookDelivery" e
         WHERE d."resource" IS NOT NULL AND d."eventId" IS NOT NULL AND d."status" = 'pending'
           AND e."endpointId" = d."endpointId" AND e."resource" = d."resource" AND e."status" = 'pending' AND e."eventId" < d."eventId"
         ORDER BY e."eventId" LIMIT 1) earlier ON true
     WHERE d."id" = ${id}`;
  // Delivered already (a job queued twice), gone with its endpoint, or waiting for it to be enabled again.
  if (!row || row.status !== 'pending' || !row.enabled) return 'skipped';
  const delivery = row;
  const endpoint = {
    id: row.endpointId,
    hotelId: row.endpointHotelId,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previousSecret,
    previousSecretUntil: row.previousSecretUntil,
    failingSince: row.failingSince,
  };
  if (row.earlier) {
    const at = Math.max(Date.now() + 200, Math.min(row.earlierNextAttemptAt?.getTime() ?? 0, Date.now() + 60_000));
    await job.moveToDelayed(at, token);
    throw new DelayedError();
  }
  const ids = delivery.ids as TEventIds;
  const state = delivery.kind === WEBHOOK_TEST_EVENT ? {} : await resourceState(deps.prisma, delivery.hotelId, delivery.kind, ids);
  const body = JSON.stringify({
    type: delivery.kind,
    timestamp: delivery.occurredAt.toISOString(),
    data: { hotelId: delivery.hotelId, roomIds: delivery.roomIds, ...ids, ...(state ?? { gone: true }) },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'smart-lock-console webhooks',
    ...signedHeaders(signingSecrets(deps, endpoint), delivery.messageId, timestamp, body),
  };
  const startedAt = new Date();
  let status: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  try {
    const answer = await sender(endpoint.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: WEBHOOK_LIMITS.timeoutMs,
      maxBytes: WEBHOOK_LIMITS.responseMaxBytes,
      maxRedirects: WEBHOOK_LIMITS.maxRedirects,
    });
    status = answer.status;
    excerpt = new TextDecoder('utf-8').decode(answer.body.subarray(0, WEBHOOK_LIMITS.responseExcerpt * 4)).slice(0, WEBHOOK_LIMITS.responseExcerpt);
  } catch (failure) {
    error = failure instanceof OutboundError ? failure.code : 'network';
  }
  const durationMs = Date.now() - startedAt.getTime();
  const ok = status !== null && status >= 200 && status < 300;
  const attempt = delivery.attempts + 1;
  // A test event is tried a few times within seconds (for the person testing now), however it was queued.
  const attempts = delivery.kind === WEBHOOK_TEST_EVENT ? Math.min(job.opts.attempts ?? 1, WEBHOOK_LIMITS.testAttempts) : (job.opts.attempts ?? 1);
  const last = !ok && job.attemptsMade + 1 >= attempts;
  const now = new Date();
  const nextAttemptAt = ok || last ? null : new Date(now.getTime() + webhookBackoff(deps, job.attemptsMade + 1));
  const failingSince = ok ? null : (endpoint.failingSince ?? startedAt);
  const disable = !ok && now.getTime() - failingSince!.getTime() >= deps.config.webhooks.disableAfterMs;
  const attemptRow = {
    deliveryId: delivery.id,
    attempt,
    url: endpoint.url,
    requestHeaders: headers,
    requestBody: body,
    responseStatus: status,
    responseExcerpt: excerpt === null ? null : toAcceptedText(excerpt),
    error,
    startedAt,
    durationMs,
  };
  if (ok) {
    // Delivered: saved with the other deliveries of the moment in one statement (delivered.ts).
    await saveDelivered(deps, {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      attempt,
      url: endpoint.url,
      headers,
      body,
      status: status!,
      excerpt: attemptRow.responseExcerpt,
      startedAt,
      durationMs,
      at: now,
    });
    return 'succeeded';
  }
  await transaction(deps, async (tx) => {
    await tx.webhookAttempt.create({ data: attemptRow });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { attempts: attempt, lastStatus: status, lastError: error, status: last ? 'failed' : 'pending', nextAttemptAt },
    });
    if (disable) {
      const disabled = await tx.webhookEndpoint.updateMany({
        where: { id: endpoint.id, enabled: true },
        data: { enabled: false, disabledReason: 'failing', disabledAt: now, failingSince },
      });
      if (disabled.count > 0)
        await recordAudit(tx, jobContext(deps, 'webhooks.deliver', `job:${job.id}`), {
          hotelId: endpoint.hotelId,
          action: 'webhook.disabled',
          entityType: 'WebhookEndpoint',
          entityId: endpoint.id,
          names: { name: endpoint.url },
          after: { reason: 'failing', failingSince: failingSince!.toISOString(), lastStatus: status, lastError: error },
        });
    } else if (endpoint.failingSince === null) await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, failingSince: null }, data: { failingSince } });
  });
  if (last || disable) return 'failed';
  throw new WebhookRetry(error ?? `http_${status}`);
}

/** The delay before retry `retry` (1: the first) for this install (WEBHOOK_FIRST_RETRY_MS). */
export function webhookBackoff(deps: Pick<Deps, 'config'>, retry: number): number {
  return webhookRetryDelay(retry, deps.config.webhooks.firstRetryMs);
}
