import { z } from 'zod';
import { isFeedUrl } from './feeds';
import { unacceptedTextReason, ZId } from './primitives';

/**
 * Webhooks (issue 29 §2, docs/webhooks.md, decision 048): the public event names a hotel's
 * endpoints subscribe to, their limits, and the inputs of the four faces.
 */
export const WEBHOOK_EVENTS = [
  'reservation.created',
  'reservation.changed',
  'reservation.cancelled',
  'stay.checked_in',
  'stay.checked_out',
  'stay.room_changed',
  'credential.on_lock',
  'credential.failed',
  'credential.removed',
  'door.opened',
  'lock.offline',
  'lock.battery_low',
  'payment.recorded',
  'feed.failed',
] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event name of "send a test event" (never sent by the outbox). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = {
  urlMax: 2048,
  descriptionMax: 200,
  /** Endpoints of one hotel. */
  endpointsMax: 20,
  /** How long one request may take, every redirect and the answer included. */
  timeoutMs: 15_000,
  /** Redirects are not followed: a 3xx is a failed attempt (Standard Webhooks' advice). */
  maxRedirects: 0,
  /** The part of an answer's body kept in the delivery log. */
  responseExcerpt: 1_000,
  /** The largest answer read (the rest is not needed). */
  responseMaxBytes: 64 * 1024,
  /** How long the previous secret still signs after a rotation. */
  previousSecretHours: 24,
  /** Attempts of a delivery: the first, then retries with exponential backoff spanning three days. */
  attempts: 20,
  /** The first retry's delay; each next one doubles, up to `maxDelayMs`. */
  firstDelayMs: 5_000,
  maxDelayMs: 12 * 3600_000,
  /** An endpoint whose every attempt failed for this long is disabled, and the hotel told. */
  disableAfterMs: 3 * 24 * 3600_000,
  /** Deliveries shown per page of the log. */
  logPage: 50,
  /**
   * Attempts of a test event (`webhook.test`): the first, then two retries (after 5 s and 10 s).
   * A test is for the person testing now; a real event's three days of retries would send it again
   * long after anyone looks (docs/webhooks.md).
   */
  testAttempts: 3,
} as const;

/**
 * How often "send a test event" may be used (issue 39 §3), as a guest message's "send again" is
 * limited: per endpoint, and per hotel over all its endpoints.
 */
export const WEBHOOK_TEST_LIMITS = {
  perEndpoint: { points: 5, windowSeconds: 60 },
  perHotel: { points: 20, windowSeconds: 600 },
} as const;

/**
 * The delay before retry number `retry` (1 for the first retry) for a first delay of `firstMs`:
 * 5 s, 10 s, 20 s ... up to 12 h, so that the 20 attempts span a little over three days.
 */
export function webhookRetryDelay(retry: number, firstMs: number = WEBHOOK_LIMITS.firstDelayMs): number {
  const max = (WEBHOOK_LIMITS.maxDelayMs / WEBHOOK_LIMITS.firstDelayMs) * firstMs;
  return Math.min(firstMs * 2 ** Math.max(0, retry - 1), max);
}

/** Whether `value` is an address an endpoint may have (as a feed's: http(s), no credentials). */
export const isWebhookUrl = (value: string) => value.length <= WEBHOOK_LIMITS.urlMax && isFeedUrl(value);

const ZWebhookUrl = z
  .string({ error: 'webhooks.validation.urlInvalid' })
  .trim()
  .min(1, { error: 'webhooks.validation.urlRequired' })
  .max(WEBHOOK_LIMITS.urlMax, { error: 'webhooks.validation.urlTooLong' })
  .superRefine((value, payload) => {
    const reason = unacceptedTextReason(value);
    if (reason) payload.addIssue({ code: 'custom', message: reason });
    else if (!isWebhookUrl(value)) payload.addIssue({ code: 'custom', message: 'webhooks.validation.urlInvalid' });
  });

const ZWebhookDescription = z
  .string({ error: 'validation.invalid' })
  .trim()
  .max(WEBHOOK_LIMITS.descriptionMax, { error: 'validation.textTooLong' })
  .superRefine((value, payload) => {
    const reason = unacceptedTextReason(value);
    if (reason) payload.addIssue({ code: 'custom', message: reason });
  });

const ZWebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: 'webhooks.validation.eventUnknown' }), { error: 'webhooks.validation.eventsRequired' })
  .min(1, { error: 'webhooks.validation.eventsRequired' })
  .max(WEBHOOK_EVENTS.length, { error: 'webhooks.validation.eventsRequired' })
  .transform((events) => [...new Set(events)]);

export const ZWebhookCreateInput = z.object({
  url: ZWebhookUrl,
  description: ZWebhookDescription.default(''),
  events: ZWebhookEvents,
});
export type TWebhookCreateInput = z.input<typeof ZWebhookCreateInput>;

export const ZWebhookIdInput = z.object({ id: ZId });

export const ZWebhookUpdateInput = z.object({
  id: ZId,
  url: ZWebhookUrl.optional(),
  description: ZWebhookDescription.optional(),
  events: ZWebhookEvents.optional(),
  enabled: z.boolean({ error: 'validation.invalid' }).optional(),
});
export type TWebhookUpdateInput = z.input<typeof ZWebhookUpdateInput>;

export const ZWebhookDeliveriesInput = z.object({
  id: ZId,
  /** The last delivery id of the previous page (newest first). */
  before: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'validation.invalid' })
    .optional(),
});

export const ZWebhookResendInput = z.object({ id: ZId, deliveryId: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }) });
