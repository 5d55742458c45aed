import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signedHeaders } from './signature';
import { verifyWebhook } from './verify-example';

describe('the verification example of docs/webhooks.md', () => {
  const now = 1_790_000_000;
  const body = JSON.stringify({ type: 'credential.on_lock', data: { id: 7 } });

  it('accepts what the console signs, with the current or the previous secret', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders([current, previous], 'msg_1', now, body);
    expect(verifyWebhook(current, headers, body, now)).toBe(true);
    expect(verifyWebhook(previous, headers, Buffer.from(body), now)).toBe(true);
  });

  it('refuses a tampered body, id, timestamp or signature, another secret and an old message', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'msg_1', now, body);
    expect(verifyWebhook(secret, headers, body.replace('7', '8'), now)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_2' }, body, now)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-timestamp': String(now + 1) }, body, now)).toBe(false);
    const signature = headers['webhook-signature']!;
    const flipped = signature.slice(0, 3) + (signature[3] === 'A' ? 'B' : 'A') + signature.slice(4);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': flipped }, body, now)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), headers, body, now)).toBe(false);
    expect(verifyWebhook(secret, headers, body, now + 301)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': 'v2,' + signature.slice(3) }, body, now)).toBe(false);
  });
});
