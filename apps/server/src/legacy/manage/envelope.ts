import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRNO_OK } from '@console/shared';
import type { Deps } from '../../context';
import { AppError, describeAppError, isUnexpected, toAppError } from '../../errors';
import { requestMeta } from '../../http/meta';
import { notUtf8Error, notUtf8JsonFields } from '../../http/utf8';
import { resolveSessionOrKey } from '../../modules/api-keys/api-key.service';
import { resolveSession } from '../../modules/auth/session.service';
import { LegacyAnswer, legacyFieldName, type LegacyAction } from './action';
import { LEGACY_ACTIONS } from './registry';

interface EnvelopeBody {
  data?: unknown;
  language?: unknown;
}

export function sendEnvelope(deps: Deps, reply: FastifyReply, body: { errno: number; errmsg: string; data: unknown }) {
  return reply
    .code(200)
    .type('text/plain; charset=utf-8')
    .send(deps.des.encrypt(JSON.stringify(body)));
}

/** Field errors named as the action's client sent them (`remark` -> `other_information`). */
function inLegacyNames(error: AppError, action: LegacyAction | undefined): AppError {
  const { fields } = error.options;
  if (!fields || !action) return error;
  const renamed = Object.fromEntries(Object.entries(fields).map(([name, message]) => [legacyFieldName(name, action.fields), message]));
  return new AppError(error.code, { ...error.options, fields: renamed });
}

/** Encrypted error answer of a legacy call: always HTTP 200, a non-zero errno, a translated errmsg. */
export function sendEnvelopeError(deps: Deps, req: FastifyRequest, reply: FastifyReply, error: unknown, action?: LegacyAction) {
  const app = inLegacyNames(toAppError(error), action);
  if (isUnexpected(app)) req.log.error({ err: error }, 'legacy action failed');
  const body = (req.body ?? {}) as EnvelopeBody;
  const meta = requestMeta(req, body.language, 'legacy');
  // Money on the legacy protocol is in major units, in its refusals too.
  const described = describeAppError(app, meta.lang, deps.i18n, 'major');
  const data = described.fields || described.details ? { ...(described.fields ? { fields: described.fields } : {}), ...described.details } : null;
  return sendEnvelope(deps, reply, { errno: described.errno, errmsg: described.message, data });
}

function decodePayload(deps: Deps, data: unknown): Record<string, unknown> {
  if (typeof data !== 'string' || data.length === 0) throw new AppError('BAD_ENVELOPE');
  let plain: Buffer;
  try {
    plain = deps.des.decryptBytes(data);
  } catch (error) {
    throw new AppError('BAD_ENVELOPE', { cause: error });
  }
  // A field in another encoding than UTF-8 (Latin-1) is refused naming it, as on every face (issue 39 §1);
  // bytes that are no JSON at all are an envelope that could not be read.
  const notUtf8 = notUtf8JsonFields(plain).filter((field) => field !== '_');
  if (notUtf8.length > 0) throw notUtf8Error(notUtf8);
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain));
  } catch (error) {
    throw new AppError('BAD_ENVELOPE', { cause: error });
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new AppError('BAD_ENVELOPE');
  const { action: _action, ...fields } = payload as Record<string, unknown>;
  return fields;
}

/**
 * `POST /manage/<path>`: the encrypted envelope of ARCHITECTURE.md. Decodes, authenticates with
 * `X-Token`, validates, calls the action's service and encrypts the answer. The same services,
 * tenancy and permission checks as tRPC stand behind every action.
 */
export function registerLegacyManage(app: FastifyInstance, deps: Deps, actions: LegacyAction[] = LEGACY_ACTIONS) {
  const byPath = new Map(actions.map((a) => [a.path, a]));
  app.post('/manage/*', async (req, reply) => {
    const body = (req.body ?? {}) as EnvelopeBody;
    const meta = requestMeta(req, body.language, 'legacy');
    const path = (req.params as { '*': string })['*'].replace(/\/+$/, '');
    const action = byPath.get(path);
    try {
      if (!action) throw new AppError('UNKNOWN_ACTION');
      const payload = decodePayload(deps, body.data);
      const parsed = action.input.safeParse(payload);
      let data: unknown;
      if (action.auth === 'session') {
        const token = req.headers['x-token'];
        const actor = await resolveSessionOrKey(deps, typeof token === 'string' ? token : undefined, (t) =>
          resolveSession(deps, t, 'legacy', { passwordChange: action.passwordChange }),
        );
        AppError.assertAcceptedText(payload);
        if (!parsed.success) throw AppError.validation(parsed.error);
        data = await action.handle({ deps, meta, actor }, parsed.data as never);
      } else {
        AppError.assertAcceptedText(payload);
        if (!parsed.success) throw AppError.validation(parsed.error);
        data = await action.handle({ deps, meta }, parsed.data as never);
      }
      if (data instanceof LegacyAnswer) return sendEnvelope(deps, reply, { errno: ERRNO_OK, errmsg: data.message, data: data.data ?? null });
      return sendEnvelope(deps, reply, { errno: ERRNO_OK, errmsg: deps.i18n.t(meta.lang, 'common.operationSucceeded'), data: data ?? null });
    } catch (error) {
      return sendEnvelopeError(deps, req, reply, error, action);
    }
  });
}
