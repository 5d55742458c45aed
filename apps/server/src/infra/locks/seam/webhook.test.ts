import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifySeamWebhook } from './webhook';

/** Signs as Svix does for Seam (standard-webhooks v1: HMAC-SHA256 of `id.timestamp.body` under the base64 secret). */
function signed(secret: string, body: string, { id = 'msg_1', at = Date.now() } = {}) {
  const timestamp = String(Math.floor(at / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': `v1,${signature}` };
}

describe("Seam's webhooks, verified with Seam's own library", () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const body = JSON.stringify({
    event_id: 'a8f1c0de-0000-4000-8000-000000000001',
    event_type: 'access_code.set_on_device',
    device_id: 'august_device_1',
    access_code_id: 'access_code1',
    occurred_at: '2026-11-28T03:00:00.000Z',
    created_at: '2026-11-28T03:00:01.000Z',
  });

  it('reads a signed event from its raw body', () => {
    expect(verifySeamWebhook(secret, Buffer.from(body), signed(secret, body))).toMatchObject({
      eventType: 'access_code.set_on_device',
      deviceId: 'august_device_1',
      accessCodeId: 'access_code1',
      occurredAt: new Date('2026-11-28T03:00:00.000Z'),
    });
    // Header names as any HTTP stack gives them, values as arrays too.
    const headers = Object.fromEntries(Object.entries(signed(secret, body)).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifySeamWebhook(secret, body, headers)?.eventType).toBe('access_code.set_on_device');
  });

  it('refuses a changed body, another secret, missing headers and an old delivery', () => {
    expect(verifySeamWebhook(secret, body.replace('set_on_device', 'removed_from_device'), signed(secret, body))).toBeNull();
    expect(verifySeamWebhook(`whsec_${randomBytes(24).toString('base64')}`, body, signed(secret, body))).toBeNull();
    expect(verifySeamWebhook(secret, body, {})).toBeNull();
    expect(verifySeamWebhook(secret, body, signed(secret, body, { at: Date.now() - 10 * 60_000 }))).toBeNull();
  });
});
