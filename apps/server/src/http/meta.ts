import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../context';
import { requestLanguage } from '../infra/i18n';

export function requestMeta(req: FastifyRequest, bodyLanguage?: unknown): RequestMeta {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip,
    userAgent: typeof ua === 'string' ? ua : undefined,
    requestId: String(req.id),
    lang: requestLanguage(req.headers, bodyLanguage),
  };
}
