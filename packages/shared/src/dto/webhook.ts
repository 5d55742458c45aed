import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../webhooks';

/** A hotel's webhook endpoint as the faces show it (never its secret but once: create, rotate). */
export const ZWebhookEndpointDto = z.object({
  id: z.number(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** `manual` (disabled by a user) or `failing` (every attempt failed for three days: the hotel is told). */
  disabledReason: z.enum(['manual', 'failing']).nullable(),
  disabledAt: z.date().nullable(),
  secretRotatedAt: z.date(),
  /** Until when the previous secret still signs (a rotation), or null. */
  previousSecretUntil: z.date().nullable(),
  failingSince: z.date().nullable(),
  lastSuccessAt: z.date().nullable(),
  /** Deliveries still to be made (waiting for their next attempt). */
  pending: z.number(),
  createdAt: z.date(),
});
export type TWebhookEndpointDto = z.infer<typeof ZWebhookEndpointDto>;

/** An endpoint with its secret, shown once (create, rotate). */
export const ZWebhookWithSecretDto = ZWebhookEndpointDto.extend({ secret: z.string() });

export const ZWebhookAttemptDto = z.object({
  attempt: z.number(),
  url: z.string(),
  startedAt: z.date(),
  durationMs: z.number(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseStatus: z.number().nullable(),
  responseExcerpt: z.string().nullable(),
  /** Why no answer came: `address_refused`, `timeout`, `network`, `redirects`, `too_large`. */
  error: z.string().nullable(),
});

export const ZWebhookDeliveryDto = z.object({
  id: z.string(),
  messageId: z.string(),
  eventId: z.string().nullable(),
  kind: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  nextAttemptAt: z.date().nullable(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  occurredAt: z.date(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
  /** The attempts, newest first. */
  log: z.array(ZWebhookAttemptDto),
});
export type TWebhookDeliveryDto = z.infer<typeof ZWebhookDeliveryDto>;

export const ZWebhookListOutput = z.object({ items: z.array(ZWebhookEndpointDto) });
export const ZWebhookCreateOutput = ZWebhookWithSecretDto;
export const ZWebhookUpdateOutput = ZWebhookEndpointDto;
export const ZWebhookDeleteOutput = z.object({ deleted: z.literal(true) });
export const ZWebhookRotateOutput = ZWebhookWithSecretDto;
export const ZWebhookDeliveriesOutput = z.object({ items: z.array(ZWebhookDeliveryDto), nextBefore: z.string().nullable() });
export const ZWebhookResendOutput = z.object({ queued: z.literal(true), deliveryId: z.string() });
