import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from './redis';

export interface SmsMessage {
  to: string;
  text: string;
}

/** Sends one text message; throwing makes the SMS job retry with backoff. */
export interface SmsSender {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

const OUTBOX_LENGTH = 200;

/**
 * The development sender: writes each message to the log and keeps the last ones in a Redis
 * list (the outbox), where tests and developers read codes. Sends nothing anywhere.
 */
export function createDevSmsSender(redis: Redis, outboxKey: string, log: FastifyBaseLogger): SmsSender {
  return {
    name: 'dev',
    async send(message) {
      log.info({ sms: { to: message.to, text: message.text } }, `[dev sms] to ${message.to}: ${message.text}`);
      await redis
        .multi()
        .lpush(outboxKey, JSON.stringify({ ...message, at: new Date().toISOString() }))
        .ltrim(outboxKey, 0, OUTBOX_LENGTH - 1)
        .exec();
    },
  };
}

export async function readDevOutbox(redis: Redis, outboxKey: string): Promise<(SmsMessage & { at: string })[]> {
  const items = await redis.lrange(outboxKey, 0, -1);
  return items.map((i) => JSON.parse(i) as SmsMessage & { at: string });
}

/** A provider reached over HTTP: POST {to, text} as JSON with a bearer token; any non-2xx is a failure. */
export function createHttpSmsSender(url: string, token: string | undefined, timeoutMs = 10_000): SmsSender {
  return {
    name: 'http',
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`SMS provider answered HTTP ${response.status}`);
    },
  };
}

/** `SMS_PROVIDER=none`: SMS password recovery is off (the service refuses before anything is queued). */
export const disabledSmsSender: SmsSender = {
  name: 'none',
  async send() {
    throw new Error('SMS_PROVIDER=none: no SMS is sent');
  },
};
