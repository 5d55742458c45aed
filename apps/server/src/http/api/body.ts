import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { notUtf8Error, notUtf8JsonFields } from '../utf8';

/** `charset=` of the request's Content-Type, lower case, when it says one. */
function charsetOf(req: FastifyRequest): string | undefined {
  const header = req.headers['content-type'];
  return typeof header === 'string' ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header)?.[1]?.toLowerCase() : undefined;
}

/**
 * The bodies the JSON API reads (issue 39 §1, §2), for every route of its scope, once: the one
 * type its document declares, `application/json` in UTF-8. Another type (a form, text), or JSON
 * said to be in another charset, is refused with 415 (`UNSUPPORTED_MEDIA_TYPE`) before anything
 * is read into the request; a field holding bytes that are not UTF-8 (Latin-1 from an older
 * property system) with 400 naming the field, where a plain decoding would have stored U+FFFD.
 * An empty body is no body, whatever its type: a write that takes none (`/check-out`) may be sent
 * with the quick start's `Content-Type: application/json`; one that takes one reads `{}` and says
 * which fields are missing.
 */
export function readApiBodies(scope: FastifyInstance) {
  // The form parser the console's legacy envelope registers (and any other) is not the API's.
  scope.removeAllContentTypeParsers();
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    const charset = charsetOf(req);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return done(new AppError('UNSUPPORTED_MEDIA_TYPE'), undefined);
    if (body.length === 0) return done(null, undefined);
    const fields = notUtf8JsonFields(body);
    if (fields.length > 0) return done(notUtf8Error(fields), undefined);
    parseJson(req, body.toString('utf8'), done);
  });
  // Any other type, or a body without one.
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) =>
    body.length === 0 ? done(null, undefined) : done(new AppError('UNSUPPORTED_MEDIA_TYPE'), undefined),
  );
}
