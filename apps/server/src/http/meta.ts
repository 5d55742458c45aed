import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../context';
import { requestLanguage } from '../infra/i18n';

/** What a request says about itself; `channel` is the face it came through (the audit log records it). */
export function requestMeta(req: FastifyRequest, bodyLanguage?: unknown, channel: NonNullable<RequestMeta['channel']> = 'console'): RequestMeta {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip,
    userAgent: typeof ua === 'string' ? ua : undefined,
    requestId: String(req.id),
    // The JSON API's clients are programs, most of them written in English: a request that names
    // no language is answered in English there (issue 39 §5), in the console's source language elsewhere.
    lang: requestLanguage(req.headers, bodyLanguage, channel === 'api' ? 'en' : undefined),
    channel,
  };
}
