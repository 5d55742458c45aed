import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../config';

/** The process's logger (pino), with credentials redacted from logged requests. */
export function createLogger(config: TConfig): FastifyBaseLogger {
  return pino({
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers["x-token"]', 'req.headers.authorization', 'res.headers["set-cookie"]'],
  }) as FastifyBaseLogger;
}
