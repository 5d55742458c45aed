import { toAcceptedText, WEBHOOK_LIMITS, WEBHOOK_TEST_EVENT, webhookRetryDelay, type TEventIds } from '@console/shared';
import { DelayedError, type Job } from 'bullmq';
import { jobContext, type Deps } from '../../context';
import { transaction } from '../../db/transaction';
import { createGuardedFetch, OutboundError, type GuardedFetch } from '../../infra/guarded-fetch';
import type { WebhookJobData } from '../../jobs/queues';
import { recordAudit } from '../audit/audit.service';
import { resourceState } from './payload';
import { signedHeaders } from './signature';
import { signingSecrets } from './webhook.service';

/**
 * The guarded fetch of webhooks (infra/guarded-fetch.ts, decision 041: the feeds' guard), one per
 * choice of the install (OUTBOUND_PRIVATE_ADDRESSES): no private, loopback or own address unless allowed.
 */
const senders = { guarded: createGuardedFetch(), open: createGuardedFetch({ privateAddresses: true }) };
export const webhookSender = (deps: Pick<Deps, 'config'>): GuardedFetch => (deps.config.webhooks.privateAddresses ? senders.open : senders.guarded);

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
  const delivery = await deps.prisma.webhookDelivery.findUnique({
    where: { id },
    select: {
      id: true,
      hotelId: true,
      eventId: true,
      messageId: true,
      kind: true,
      resource: true,
      ids: true,
      roomIds: true,
      occurredAt: true,
      status: true,
      attempts: true,
      endpoint: {
        select: { id: true, hotelId: true, url: true, enabled: true, secret: true, previousSecret: true, previousSecretUntil: true, failingSince: true },
      },
    },
  });
  // Delivered already (a job queued twice), gone with its endpoint, or waiting for it to be enabled again.
  if (!delivery || delivery.status !== 'pending' || !delivery.endpoint.enabled) return 'skipped';
  const endpoint = delivery.endpoint;
  if (delivery.resource !== null && delivery.eventId !== null) {
    const earlier = await deps.prisma.webhookDelivery.findFirst({
      where: { endpointId: endpoint.id, resource: delivery.resource, status: 'pending', eventId: { lt: delivery.eventId } },
      select: { nextAttemptAt: true },
      orderBy: { eventId: 'asc' },
    });
    if (earlier) {
      const at = Math.max(Date.now() + 200, Math.min(earlier.nextAttemptAt?.getTime() ?? 0, Date.now() + 60_000));
      await job.moveToDelayed(at, token);
      throw new DelayedError();
    }
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
  const last = !ok && job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const now = new Date();
  const nextAttemptAt = ok || last ? null : new Date(now.getTime() + webhookBackoff(deps, job.attemptsMade + 1));
  const failingSince = ok ? null : (endpoint.failingSince ?? startedAt);
  const disable = !ok && now.getTime() - failingSince!.getTime() >= deps.config.webhooks.disableAfterMs;
  await transaction(deps, async (tx) => {
    await tx.webhookAttempt.create({
      data: {
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
      },
    });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        attempts: attempt,
        lastStatus: status,
        lastError: error,
        status: ok ? 'succeeded' : last ? 'failed' : 'pending',
        nextAttemptAt,
        ...(ok ? { deliveredAt: now } : {}),
      },
    });
    if (ok) await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id }, data: { lastSuccessAt: now, failingSince: null } });
    else if (disable) {
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
  if (ok) return 'succeeded';
  if (last || disable) return 'failed';
  throw new WebhookRetry(error ?? `http_${status}`);
}

/** The delay before retry `retry` (1: the first) for this install (WEBHOOK_FIRST_RETRY_MS). */
export function webhookBackoff(deps: Pick<Deps, 'config'>, retry: number): number {
  return webhookRetryDelay(retry, deps.config.webhooks.firstRetryMs);
}
