// A receiver's check of a webhook from the console (docs/webhooks.md "Checking a webhook"), as
// the Standard Webhooks specification describes it, with nothing but node:crypto. Copy it into
// your receiver: it is the code the console's own tests check its deliveries with.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a webhook's timestamp may be from the receiver's clock (seconds): older ones are replays. */
export const TOLERANCE_SECONDS = 5 * 60;

/**
 * Whether a webhook is genuine: `secret` is the endpoint's secret as shown once (`whsec_...`),
 * `headers` the request's headers (lower-case names), `body` the request's body exactly as
 * received (bytes or text, before any JSON parsing). Any one of the signatures in
 * `webhook-signature` may match: during a rotation the console signs with both secrets.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string | Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
