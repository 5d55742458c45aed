import { SeamWebhook, SeamWebhookVerificationError } from '@seamapi/webhook';
import { readEvent, type SeamEvent } from './answers';

/**
 * A webhook Seam posted, checked with Seam's own library (`@seamapi/webhook`: Svix's signature
 * scheme, `svix-id` / `svix-timestamp` / `svix-signature` headers, the endpoint's `whsec_` secret,
 * five minutes of clock tolerance). Seam delivers through Svix and retries a delivery 8 times over
 * about 28 hours (shared/research/seam.md), so a refusal is safe: the route answers it, Svix sends
 * again, the event is read as the adapter reads events (answers.ts).
 *
 * `rawBody` must be the bytes as received (a body parsed and serialised again does not verify).
 * Returns null when the headers, the signature or the time do not verify; a secret that is not one
 * throws. Not wired to a route yet (docs/seam.md, "Not done yet").
 */
export function verifySeamWebhook(secret: string, rawBody: string | Buffer, headers: Record<string, string | string[] | undefined>): SeamEvent | null {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') plain[name] = first;
  }
  try {
    const event: unknown = new SeamWebhook(secret).verify(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'), plain);
    return readEvent(event);
  } catch (error) {
    if (error instanceof SeamWebhookVerificationError) return null;
    throw error;
  }
}
