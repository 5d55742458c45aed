import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { APP_ERRORS, LANGUAGES, resolveLanguageHeader, type TAppErrorCode, type TLanguageHeader } from '@console/shared';
import type { TKeyPageViewOutput } from '@console/shared/dto';
import type { Deps } from '../../context';
import { AppError, describeAppError, toAppError } from '../../errors';
import { requestMeta } from '../../http/meta';
import { isAddressLimit, openByKeyPage, readKeyPage, viewKeyPage } from './key-page.service';

/**
 * The guest's key page as a small server-rendered page (decision 031): `GET /k/<token>` in the
 * guest's language (`?lang=` switches it), `POST /k/<token>/open` for "open the door now" (a plain
 * form per door, then back to the page). No script, no console bundle, no cookie; the token is the
 * secret. A refusal answers with the HTTP status tRPC gives the same error (issue 27 §10).
 */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The HTTP status of an error, as tRPC answers it (APP_ERRORS): the page and `keyPage.*` always agree. */
const statusOf = (code: TAppErrorCode) => getHTTPStatusCodeFromError(new TRPCError({ code: APP_ERRORS[code].trpc }));

/**
 * A translated text around a value of the hotel's (a room's or a door's name), as HTML: the value
 * isolated in `<bdi>`, so that it keeps its own direction inside a right-to-left page and does not
 * reorder the words around it.
 */
function around(text: (placeholder: string) => string, value: string): string {
  const mark = '\uE000';
  return esc(text(mark))
    .split(mark)
    .join(`<bdi>${esc(value)}</bdi>`);
}

function pageLanguage(req: FastifyRequest, fallback: TLanguageHeader | null): TLanguageHeader {
  const asked = (req.query as { lang?: unknown }).lang;
  const chosen = typeof asked === 'string' ? resolveLanguageHeader(asked) : undefined;
  return chosen ?? fallback ?? requestMeta(req).lang;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","PingFang SC",sans-serif;background:#f4f5f7;color:#1a1d21}
main{max-width:30rem;margin:0 auto;padding:1rem}header{padding:.5rem 0 1rem}h1{font-size:1.375rem;margin:0}h2{font-size:1rem;margin:0 0 .5rem}
.muted{color:#4b5563}.card{background:#fff;border-radius:.75rem;padding:1rem;margin:0 0 .75rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dt{color:#4b5563}dd{margin:0;font-weight:600}
.code{font-size:2.25rem;font-weight:700;letter-spacing:.2em;font-variant-numeric:tabular-nums;direction:ltr;unicode-bidi:isolate}
.button{display:block;width:100%;min-height:3rem;border:0;border-radius:.75rem;background:#0b5cad;color:#fff;font:inherit;font-weight:700;font-size:1.125rem;cursor:pointer}
.doors form+form{margin-top:.75rem}
.button:focus-visible,a:focus-visible,select:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.note{border-radius:.75rem;padding:.75rem 1rem;margin:0 0 .75rem}.ok{background:#dcfce7;color:#14532d}.bad{background:#fee2e2;color:#7f1d1d}
a{color:#0b5cad}.notice{white-space:pre-line}form.lang{display:flex;gap:.5rem;align-items:center;justify-content:flex-end}
select{font:inherit;min-height:2.5rem;padding:0 .5rem;border-radius:.5rem;border:1px solid #9ca3af;background:#fff;color:inherit}
.lang button{font:inherit;min-height:2.5rem;border-radius:.5rem;border:1px solid #9ca3af;background:#fff;color:inherit;padding:0 .75rem}
`;

function shell(lang: TLanguageHeader, title: string, body: string, t: (key: string) => string): string {
  const dir = LANGUAGES.find((l) => l.header === lang)?.dir ?? 'ltr';
  const options = LANGUAGES.map(
    (l) => `<option value="${l.header}"${l.header === lang ? ' selected' : ''} lang="${l.header}">${esc(l.nativeName)}</option>`,
  ).join('');
  return `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>
<form class="lang" method="get"><label for="lang">${esc(t('keyPage.language'))}</label><select id="lang" name="lang">${options}</select><button type="submit">${esc(t('common.confirm'))}</button></form>
${body}
</main></body></html>`;
}

function formatTime(iso: string, lang: TLanguageHeader, timeZone: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

function viewHtml(deps: Deps, token: string, view: TKeyPageViewOutput, lang: TLanguageHeader, flash: { ok?: boolean; error?: string }): string {
  const t = (key: string, params?: Record<string, unknown>) => deps.i18n.t(lang, key, params);
  const time = (iso: string) => formatTime(iso, lang, view.timeZone);
  const codes = view.codes.length
    ? view.codes
        .map(
          (c) =>
            `<p class="code" data-testid="key-code">${esc(c.code)}</p><p class="muted">${esc(
              c.validUntil ? t('keyPage.codeUntil', { until: time(c.validUntil) }) : t('keyPage.codeFrom', { from: time(c.validFrom) }),
            )}</p>`,
        )
        .join('')
    : `<p>${esc(t('keyPage.noCode'))}</p>`;
  // One button per door, named by its door ("Open Room 108", "Open Entrance"), the room's first: a
  // shared door by its kind, and by its own name too when it is "other" or another door has its kind.
  const kindCount = (kind: string) => view.doors.filter((x) => x.kind === kind).length;
  const label = (d: TKeyPageViewOutput['doors'][number]) => {
    const open = (door: string) => t('keyPage.openDoorOf', { door });
    if (d.kind === 'room') return around((name) => open(t('keyPage.roomDoor', { room: name })), d.name);
    const kind = t(`sharedDoors.kinds.${d.kind}`);
    if (d.kind === 'other') return around(open, d.name);
    return kindCount(d.kind) > 1 ? around((name) => open(`${kind} · ${name}`), d.name) : esc(open(kind));
  };
  const doors = view.doors
    .filter((d) => d.canOpen)
    .map(
      (d) =>
        `<form method="post" action="/k/${esc(token)}/open?lang=${lang}"><input type="hidden" name="door" value="${esc(d.door)}"><button class="button" type="submit" data-testid="key-open-${esc(d.door)}">${label(d)}</button></form>`,
    )
    .join('');
  const flashHtml = flash.ok
    ? `<p class="note ok" role="status">${esc(t('keyPage.opened'))}</p>`
    : flash.error
      ? `<p class="note bad" role="alert">${esc(flash.error)}</p>`
      : '';
  const address = view.hotel.address
    ? `<p><bdi data-testid="key-address">${esc(view.hotel.address)}</bdi></p>${view.hotel.mapUrl ? `<p><a href="${esc(view.hotel.mapUrl)}" rel="noreferrer noopener" target="_blank">${esc(t('keyPage.openMap'))}</a></p>` : ''}`
    : '';
  const phone = view.hotel.phone
    ? `<p><a href="tel:${esc(view.hotel.phone.replace(/[^\d+]/g, ''))}">${esc(t('keyPage.callHotel'))}: <bdi>${esc(view.hotel.phone)}</bdi></a></p>`
    : '';
  const body = `
<header><p class="muted"><bdi>${esc(view.hotel.name)}</bdi></p><h1>${esc(t('keyPage.title'))}</h1></header>
${flashHtml}
<section class="card" aria-labelledby="stay-h"><h2 id="stay-h">${around((name) => t('keyPage.roomDoor', { room: name }), view.room.name)}</h2>
<dl><dt>${esc(t('keyPage.arrival'))}</dt><dd>${esc(time(view.arrival))}</dd><dt>${esc(t('keyPage.departure'))}</dt><dd>${esc(time(view.departure))}</dd></dl></section>
<section class="card" aria-labelledby="code-h"><h2 id="code-h">${esc(t('keyPage.code'))}</h2>${codes}</section>
${view.state === 'upcoming' ? `<p class="note ok">${esc(t('keyPage.upcoming'))}</p>` : doors ? `<section class="card doors" aria-labelledby="doors-h"><h2 id="doors-h">${esc(t('keyPage.openTitle'))}</h2>${doors}</section>` : ''}
<section class="card" aria-labelledby="dir-h"><h2 id="dir-h">${esc(t('keyPage.directions'))}</h2>
${view.room.notice ? `<p class="notice" dir="auto">${esc(view.room.notice)}</p>` : ''}${address}${phone}</section>`;
  return shell(lang, `${t('keyPage.title')} · ${view.hotel.name}`, body, t);
}

function notFoundHtml(deps: Deps, lang: TLanguageHeader): string {
  const t = (key: string) => deps.i18n.t(lang, key);
  return shell(
    lang,
    t('keyPage.notFoundTitle'),
    `<header><h1>${esc(t('keyPage.notFoundTitle'))}</h1></header><p class="card">${esc(t('keyPage.notFoundText'))}</p>`,
    t,
  );
}

function send(reply: FastifyReply, status: number, html: string, retryAfterSeconds?: number) {
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(html);
}

/** The page of an address that used links too often: nothing of any link, the time to wait (429, Retry-After). */
function tooManyHtml(deps: Deps, lang: TLanguageHeader, error: AppError): string {
  const t = (key: string) => deps.i18n.t(lang, key);
  return shell(
    lang,
    t('keyPage.tooManyTitle'),
    `<header><h1>${esc(t('keyPage.tooManyTitle'))}</h1></header><p class="note bad" role="alert">${esc(describeAppError(error, lang, deps.i18n).message)}</p>`,
    t,
  );
}

export function registerKeyPage(app: FastifyInstance, deps: Deps) {
  const tokenOf = (req: FastifyRequest) => (req.params as { token: string }).token;
  const metaOf = (req: FastifyRequest) => ({ ...requestMeta(req), channel: undefined });

  /** An error no link's page can show: 404 (one page for every link that opens nothing), 429 (the address). */
  const refusal = (reply: FastifyReply, error: AppError, lang: TLanguageHeader) => {
    if (error.code === 'NOT_FOUND' || error.code === 'VALIDATION') return send(reply, 404, notFoundHtml(deps, lang));
    if (error.code === 'TOO_MANY_ATTEMPTS') return send(reply, 429, tooManyHtml(deps, lang, error), error.options.retryAfterSeconds);
    return undefined;
  };

  app.get('/k/:token', async (req, reply) => {
    const token = tokenOf(req);
    try {
      const view = await viewKeyPage({ deps, meta: metaOf(req) }, { token });
      const opened = (req.query as { opened?: string }).opened === '1';
      return send(reply, 200, viewHtml(deps, token, view, pageLanguage(req, view.language), { ok: opened }));
    } catch (error) {
      const answered = refusal(reply, toAppError(error), pageLanguage(req, null));
      if (answered) return answered;
      throw error;
    }
  });

  app.post('/k/:token/open', async (req, reply) => {
    const token = tokenOf(req);
    const lang = pageLanguage(req, null);
    try {
      const door = (req.body as { door?: unknown } | undefined)?.door;
      await openByKeyPage({ deps, meta: requestMeta(req) }, { token, door: door === undefined ? 'room' : typeof door === 'string' ? door : '' });
    } catch (error) {
      const appError = toAppError(error);
      if (!(error instanceof AppError) && appError.code === 'INTERNAL') throw error;
      // Before the link was looked up (the address's limit), or a link that opens nothing: no page of it.
      if (appError.code !== 'TOO_MANY_ATTEMPTS' || isAddressLimit(appError)) {
        const answered = refusal(reply, appError, lang);
        if (answered) return answered;
      }
      // The link's page with why the door did not open, under the refusal's own status (409 not open
      // now, 429 the link opened too often, 502 the lock did not answer): this request was counted already.
      let view: TKeyPageViewOutput;
      try {
        view = await readKeyPage({ deps, meta: metaOf(req) }, { token });
      } catch (again) {
        const answered = refusal(reply, toAppError(again), lang);
        if (answered) return answered;
        throw again;
      }
      const flash = { error: describeAppError(appError, lang, deps.i18n).message };
      return send(reply, statusOf(appError.code), viewHtml(deps, token, view, lang, flash), appError.options.retryAfterSeconds);
    }
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .redirect(`/k/${encodeURIComponent(token)}?lang=${lang}&opened=1`, 303);
  });
}
