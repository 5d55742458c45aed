import { z } from 'zod';
import { bool } from './variables';

/** The server's own requests to addresses users type (calendar feeds, webhooks). */
export const outboundEnv = z.object({
  /**
   * Whether the server's requests to addresses users type (calendar feeds) may go to the machine
   * itself and to special-purpose addresses (private, loopback, link-local...: a feed on the
   * hotel's own network). Off: such a target is refused (`address_refused`, infra/guarded-fetch.ts),
   * so a manager cannot make the server fetch from inside its network. FEED_PRIVATE_ADDRESSES is
   * its former name, still read when this one is unset.
   */
  OUTBOUND_PRIVATE_ADDRESSES: bool.optional(),
  FEED_PRIVATE_ADDRESSES: bool.optional(),
  /** Webhooks (docs/webhooks.md): the first retry's delay (each next one doubles, 20 attempts over three days at 5 s). */
  WEBHOOK_FIRST_RETRY_MS: z.coerce.number().int().min(1).max(3_600_000).default(5_000),
  /** How long every attempt to an endpoint may fail before it is disabled and the hotel told (default three days). */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3 * 24 * 3_600_000),
});
type OutboundEnv = z.output<typeof outboundEnv>;

/** OUTBOUND_PRIVATE_ADDRESSES, or its former name. */
export function privateAddressesOf(env: OutboundEnv): boolean {
  return env.OUTBOUND_PRIVATE_ADDRESSES ?? env.FEED_PRIVATE_ADDRESSES ?? false;
}

/** Webhooks: sent through the same guarded fetch as the feeds, with the same OUTBOUND_PRIVATE_ADDRESSES. */
export function webhookSettings(env: OutboundEnv) {
  return {
    privateAddresses: privateAddressesOf(env),
    firstRetryMs: env.WEBHOOK_FIRST_RETRY_MS,
    disableAfterMs: env.WEBHOOK_DISABLE_AFTER_MS,
  };
}
