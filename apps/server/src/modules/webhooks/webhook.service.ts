import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEST_LIMITS,
  ZWebhookCreateInput,
  ZWebhookDeliveriesInput,
  ZWebhookIdInput,
  ZWebhookResendInput,
  ZWebhookUpdateInput,
  type TWebhookEvent,
} from '@console/shared';
import type { TWebhookDeliveryDto, TWebhookEndpointDto } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext, Deps } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { consumeActionLimits } from '../../infra/action-limits';
import { addressRefusal } from '../../infra/guarded-fetch';
import { seal, unseal, type SealPurpose } from '../../infra/seal';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { newWebhookSecret } from './signature';
import { queueDeliveries } from './queue';
import { recordEvent } from '../../db/events';

/**
 * A hotel's webhook endpoints (Settings > Webhooks, `/api/v1/webhooks`, docs/webhooks.md):
 * managers of the hotel (hotel.manage) list, create, change, delete them, rotate their secrets,
 * read their delivery log, send a delivery again and send a test event. Every id is looked up in
 * the actor's hotel: another hotel's endpoint or delivery is not found.
 */

const SECRETS: SealPurpose = { salt: 'smart-lock-console/webhooks', info: 'webhook signing secrets v1' };
const boundTo = (endpoint: { id: number; hotelId: number }) => `webhook:${endpoint.hotelId}:${endpoint.id}`;

export const sealSecret = (deps: Pick<Deps, 'config'>, endpoint: { id: number; hotelId: number }, secret: string) =>
  seal(deps.config.cardKeySecret, SECRETS, boundTo(endpoint), secret);

/**
 * Secrets opened once per process (per configuration): a delivery's attempt reads its endpoint's
 * sealed secrets with the delivery (one statement), and opening them again for every message cost a
 * key derivation and a decryption each. Keyed by the sealed text, so a rotated secret is a new
 * entry; at most SECRET_CACHE_MAX entries, the cache emptied past that.
 */
const opened = new WeakMap<object, Map<string, string | null>>();
const SECRET_CACHE_MAX = 1_000;

function openSecret(deps: Pick<Deps, 'config'>, endpoint: { id: number; hotelId: number }, sealed: string): string | null {
  let cache = opened.get(deps.config);
  if (!cache) opened.set(deps.config, (cache = new Map()));
  const key = `${boundTo(endpoint)}|${sealed}`;
  if (cache.has(key)) return cache.get(key)!;
  const plain = unseal(deps.config.cardKeySecret, SECRETS, boundTo(endpoint), sealed);
  if (cache.size >= SECRET_CACHE_MAX) cache.clear();
  cache.set(key, plain);
  return plain;
}

/** The secrets that sign a message now: the current one, and the previous one during a rotation. */
export function signingSecrets(
  deps: Pick<Deps, 'config'>,
  endpoint: { id: number; hotelId: number; secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
  now = new Date(),
): string[] {
  const current = openSecret(deps, endpoint, endpoint.secret);
  if (!current) throw new Error(`webhook ${endpoint.id}: its secret cannot be opened (CARD_KEY_SECRET changed?)`);
  const previous =
    endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now ? openSecret(deps, endpoint, endpoint.previousSecret) : null;
  return previous ? [current, previous] : [current];
}

const endpointSelect = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  secretRotatedAt: true,
  previousSecretUntil: true,
  failingSince: true,
  lastSuccessAt: true,
  createdAt: true,
  _count: { select: { deliveries: { where: { status: 'pending' } } } },
} as const;

type EndpointRow = { _count: { deliveries: number }; events: string[]; disabledReason: string | null } & Omit<
  TWebhookEndpointDto,
  'pending' | 'events' | 'disabledReason'
>;

const toDto = ({ _count, events, disabledReason, ...row }: EndpointRow): TWebhookEndpointDto => ({
  ...row,
  events: events as TWebhookEvent[],
  disabledReason: disabledReason as TWebhookEndpointDto['disabledReason'],
  pending: _count.deliveries,
});

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'webhooks.errors.notFound' });

async function findEndpoint(ctx: AuthedContext, id: number) {
  const row = await ctx.deps.prisma.webhookEndpoint.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: endpointSelect });
  if (!row) throw notFound();
  return row;
}

/**
 * An address the install would refuse to send to (a literal private, loopback or own address,
 * unless OUTBOUND_PRIVATE_ADDRESSES allows them) is refused at once; a name is checked by the
 * guarded fetch at each attempt, against the addresses it resolves to then.
 */
function checkAddress(ctx: AuthedContext, url: string): void {
  const host = new URL(url).hostname;
  if (addressRefusal(host, { privateAddresses: ctx.deps.config.webhooks.privateAddresses }))
    throw new AppError('BAD_REQUEST', { messageKey: 'webhooks.errors.addressRefused' });
}

export async function listWebhooks(ctx: AuthedContext): Promise<{ items: TWebhookEndpointDto[] }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const rows = await ctx.deps.prisma.webhookEndpoint.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: endpointSelect,
    orderBy: { id: 'asc' },
    take: WEBHOOK_LIMITS.endpointsMax,
  });
  return { items: rows.map(toDto) };
}

export async function createWebhook(ctx: AuthedContext, raw: z.input<typeof ZWebhookCreateInput>): Promise<TWebhookEndpointDto & { secret: string }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZWebhookCreateInput.parse(raw);
  checkAddress(ctx, input.url);
  const secret = newWebhookSecret();
  const hotelId = ctx.actor.hotelId;
  const id = await transaction(ctx.deps, async (tx) => {
    // One creation at a time per hotel, so the limit holds under two requests at once.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhooks'), ${hotelId})`;
    if ((await tx.webhookEndpoint.count({ where: { hotelId } })) >= WEBHOOK_LIMITS.endpointsMax)
      throw new AppError('CONFLICT', { messageKey: 'webhooks.errors.tooMany' });
    const created = await tx.webhookEndpoint.create({
      data: { hotelId, url: input.url, description: input.description, events: input.events, secret: '' },
      select: { id: true },
    });
    await tx.webhookEndpoint.update({ where: { id: created.id }, data: { secret: sealSecret(ctx.deps, { id: created.id, hotelId }, secret) } });
    await recordAudit(tx, ctx, {
      action: 'webhook.create',
      entityType: 'WebhookEndpoint',
      entityId: created.id,
      names: { name: input.url },
      after: { url: input.url, description: input.description, events: input.events },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'webhook.changed' });
    return created.id;
  });
  return { ...toDto(await findEndpoint(ctx, id)), secret };
}

export async function updateWebhook(ctx: AuthedContext, raw: z.input<typeof ZWebhookUpdateInput>): Promise<TWebhookEndpointDto> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZWebhookUpdateInput.parse(raw);
  if (input.url !== undefined) checkAddress(ctx, input.url);
  const before = await findEndpoint(ctx, input.id);
  const enabling = input.enabled === true && !before.enabled;
  await transaction(ctx.deps, async (tx) => {
    await tx.webhookEndpoint.updateMany({
      where: { id: before.id, hotelId: ctx.actor.hotelId },
      data: {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.enabled === false && before.enabled ? { enabled: false, disabledReason: 'manual', disabledAt: new Date() } : {}),
        ...(enabling ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } : {}),
        updatedAt: new Date(),
      },
    });
    await recordAudit(tx, ctx, {
      action: 'webhook.update',
      entityType: 'WebhookEndpoint',
      entityId: before.id,
      names: { name: input.url ?? before.url },
      before: { url: before.url, description: before.description, events: before.events, enabled: before.enabled },
      after: {
        url: input.url ?? before.url,
        description: input.description ?? before.description,
        events: input.events ?? before.events,
        enabled: input.enabled ?? before.enabled,
      },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'webhook.changed' });
  });
  // Enabled again: what waited while it was disabled goes out now, in order, each in a job of its
  // own (the job that met the endpoint disabled is kept finished for an hour under the delivery's id).
  if (enabling) {
    const pending = await ctx.deps.prisma.webhookDelivery.findMany({
      where: { endpointId: before.id, status: 'pending' },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    await queueDeliveries(
      ctx.deps,
      pending.map((d) => d.id),
      { again: true },
    );
  }
  return toDto(await findEndpoint(ctx, before.id));
}

export async function deleteWebhook(ctx: AuthedContext, raw: z.input<typeof ZWebhookIdInput>): Promise<{ deleted: true }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { id } = ZWebhookIdInput.parse(raw);
  const before = await findEndpoint(ctx, id);
  await transaction(ctx.deps, async (tx) => {
    await tx.webhookEndpoint.deleteMany({ where: { id: before.id, hotelId: ctx.actor.hotelId } });
    await recordAudit(tx, ctx, {
      action: 'webhook.delete',
      entityType: 'WebhookEndpoint',
      entityId: before.id,
      names: { name: before.url },
      before: { url: before.url, description: before.description, events: before.events },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'webhook.changed' });
  });
  return { deleted: true };
}

/**
 * A new secret, shown once; the previous one still signs for WEBHOOK_LIMITS.previousSecretHours
 * (every message carries both signatures), so a receiver can change its secret meanwhile.
 */
export async function rotateWebhookSecret(ctx: AuthedContext, raw: z.input<typeof ZWebhookIdInput>): Promise<TWebhookEndpointDto & { secret: string }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { id } = ZWebhookIdInput.parse(raw);
  const before = await findEndpoint(ctx, id);
  const secret = newWebhookSecret();
  const hotelId = ctx.actor.hotelId;
  await transaction(ctx.deps, async (tx) => {
    const [row] = await tx.$queryRaw<
      { secret: string }[]
    >`SELECT "secret" FROM "WebhookEndpoint" WHERE "id" = ${before.id} AND "hotelId" = ${hotelId} FOR UPDATE`;
    if (!row) throw notFound();
    const now = new Date();
    await tx.webhookEndpoint.update({
      where: { id: before.id },
      data: {
        secret: sealSecret(ctx.deps, { id: before.id, hotelId }, secret),
        previousSecret: row.secret,
        previousSecretUntil: new Date(now.getTime() + WEBHOOK_LIMITS.previousSecretHours * 3600_000),
        secretRotatedAt: now,
        updatedAt: now,
      },
    });
    await recordAudit(tx, ctx, { action: 'webhook.rotateSecret', entityType: 'WebhookEndpoint', entityId: before.id, names: { name: before.url } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'webhook.changed' });
  });
  return { ...toDto(await findEndpoint(ctx, before.id)), secret };
}

/** The endpoint's deliveries, newest first, each with its attempts (request, answer, time). */
export async function listWebhookDeliveries(
  ctx: AuthedContext,
  raw: z.input<typeof ZWebhookDeliveriesInput>,
): Promise<{ items: TWebhookDeliveryDto[]; nextBefore: string | null }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZWebhookDeliveriesInput.parse(raw);
  const endpoint = await findEndpoint(ctx, input.id);
  const rows = await ctx.deps.prisma.webhookDelivery.findMany({
    where: { endpointId: endpoint.id, hotelId: ctx.actor.hotelId, ...(input.before ? { id: { lt: BigInt(input.before) } } : {}) },
    orderBy: { id: 'desc' },
    take: WEBHOOK_LIMITS.logPage + 1,
    select: {
      id: true,
      messageId: true,
      eventId: true,
      kind: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      lastStatus: true,
      lastError: true,
      occurredAt: true,
      deliveredAt: true,
      createdAt: true,
      attemptsMade: {
        orderBy: { attempt: 'desc' },
        take: 25,
        select: {
          attempt: true,
          url: true,
          startedAt: true,
          durationMs: true,
          requestHeaders: true,
          requestBody: true,
          responseStatus: true,
          responseExcerpt: true,
          error: true,
        },
      },
    },
  });
  const page = rows.slice(0, WEBHOOK_LIMITS.logPage);
  return {
    items: page.map(({ attemptsMade, id, eventId, status, ...d }) => ({
      ...d,
      id: String(id),
      eventId: eventId === null ? null : String(eventId),
      status: status as TWebhookDeliveryDto['status'],
      log: attemptsMade.map((a) => ({ ...a, requestHeaders: a.requestHeaders as Record<string, string> })),
    })),
    nextBefore: rows.length > WEBHOOK_LIMITS.logPage ? String(page[page.length - 1]!.id) : null,
  };
}

/** "Send again": the same message (the same webhook-id, its data read anew), queued now. */
export async function resendWebhookDelivery(ctx: AuthedContext, raw: z.input<typeof ZWebhookResendInput>): Promise<{ queued: true; deliveryId: string }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZWebhookResendInput.parse(raw);
  const endpoint = await findEndpoint(ctx, input.id);
  const delivery = await ctx.deps.prisma.webhookDelivery.findFirst({
    where: { id: BigInt(input.deliveryId), endpointId: endpoint.id, hotelId: ctx.actor.hotelId },
    select: { id: true, messageId: true, kind: true },
  });
  if (!delivery) throw new AppError('NOT_FOUND', { messageKey: 'webhooks.errors.deliveryNotFound' });
  await transaction(ctx.deps, async (tx) => {
    await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'pending', nextAttemptAt: new Date() } });
    await recordAudit(tx, ctx, {
      action: 'webhook.resend',
      entityType: 'WebhookEndpoint',
      entityId: endpoint.id,
      names: { name: endpoint.url },
      after: { messageId: delivery.messageId, kind: delivery.kind },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'webhook.changed' });
  });
  await queueDeliveries(ctx.deps, [delivery.id], { again: true });
  return { queued: true, deliveryId: String(delivery.id) };
}

/**
 * "Send a test event": a `webhook.test` message of its own, signed and logged like any other, a few
 * times a minute per endpoint and per hotel (WEBHOOK_TEST_LIMITS), tried WEBHOOK_LIMITS.testAttempts times.
 */
export async function sendWebhookTest(ctx: AuthedContext, raw: z.input<typeof ZWebhookIdInput>): Promise<{ queued: true; deliveryId: string }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const { id } = ZWebhookIdInput.parse(raw);
  const endpoint = await findEndpoint(ctx, id);
  await consumeActionLimits(
    ctx.deps,
    [
      { name: 'webhook-test-endpoint', limit: WEBHOOK_TEST_LIMITS.perEndpoint, key: endpoint.id },
      { name: 'webhook-test-hotel', limit: WEBHOOK_TEST_LIMITS.perHotel, key: ctx.actor.hotelId },
    ],
    'webhooks.errors.tooManyTests',
  );
  const deliveryId = await transaction(ctx.deps, async (tx) => {
    const created = await tx.webhookDelivery.create({
      data: {
        hotelId: ctx.actor.hotelId,
        endpointId: endpoint.id,
        messageId: `msg_test_${randomBytes(12).toString('hex')}`,
        kind: WEBHOOK_TEST_EVENT,
        occurredAt: new Date(),
        nextAttemptAt: new Date(),
      },
      select: { id: true },
    });
    await recordAudit(tx, ctx, { action: 'webhook.test', entityType: 'WebhookEndpoint', entityId: endpoint.id, names: { name: endpoint.url } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'webhook.changed' });
    return created.id;
  });
  await queueDeliveries(ctx.deps, [deliveryId], { again: true });
  return { queued: true, deliveryId: String(deliveryId) };
}
