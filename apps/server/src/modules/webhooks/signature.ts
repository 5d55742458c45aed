import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (docs/webhooks.md): a secret is `whsec_` + base64 of 24 random bytes;
 * the signature of a message is `v1,` + base64(HMAC-SHA256(the secret's bytes, `id.timestamp.body`)).
 */

export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three headers of a message signed with every secret given (the current one first). */
export function signedHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
