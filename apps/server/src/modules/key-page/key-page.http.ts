import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGES, resolveLanguageHeader, type TLanguageHeader } from '@console/shared';
import type { TKeyPageViewOutput } from '@console/shared/dto';
import type { Deps } from '../../context';
import { AppError, describeAppError, toAppError } from '../../errors';
import { requestMeta } from '../../http/meta';
import { openByKeyPage, viewKeyPage } from './key-page.service';

/**
 * The guest's key page as a small server-rendered page (decision 031): `GET /k/<token>` in the
 * guest's language (`?lang=` switches it), `POST /k/<token>/open` for "open the door now" (a plain
 * form, then back to the page). No script, no console bundle, no cookie; the token is the secret.
 */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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
  const doors = view.doors
    .map((d) =>
      d.canOpen
        ? `${d.kind === 'room' ? '' : `<p class="muted">${esc(`${t(`sharedDoors.kinds.${d.kind}`)} · ${d.name}`)}</p>`}<form method="post" action="/k/${esc(token)}/open?lang=${lang}"><input type="hidden" name="door" value="${esc(d.door)}"><button class="button" type="submit" data-testid="key-open-${esc(d.door)}">${esc(t('keyPage.openDoor'))}</button></form>`
        : '',
    )
    .join('');
  const flashHtml = flash.ok
    ? `<p class="note ok" role="status">${esc(t('keyPage.opened'))}</p>`
    : flash.error
      ? `<p class="note bad" role="alert">${esc(flash.error)}</p>`
      : '';
  const address = view.hotel.address
    ? `<p>${esc(view.hotel.address)}</p>${view.hotel.mapUrl ? `<p><a href="${esc(view.hotel.mapUrl)}" rel="noreferrer noopener" target="_blank">${esc(t('keyPage.openMap'))}</a></p>` : ''}`
    : '';
  const phone = view.hotel.phone
    ? `<p><a href="tel:${esc(view.hotel.phone.replace(/[^\d+]/g, ''))}">${esc(t('keyPage.callHotel'))}: <bdi>${esc(view.hotel.phone)}</bdi></a></p>`
    : '';
  const body = `
<header><p class="muted">${esc(view.hotel.name)}</p><h1>${esc(t('keyPage.title'))}</h1></header>
${flashHtml}
<section class="card" aria-labelledby="stay-h"><h2 id="stay-h">${esc(view.room.name)}</h2>
<dl><dt>${esc(t('keyPage.arrival'))}</dt><dd>${esc(time(view.arrival))}</dd><dt>${esc(t('keyPage.departure'))}</dt><dd>${esc(time(view.departure))}</dd></dl></section>
<section class="card" aria-labelledby="code-h"><h2 id="code-h">${esc(t('keyPage.code'))}</h2>${codes}</section>
${view.state === 'upcoming' ? `<p class="note ok">${esc(t('keyPage.upcoming'))}</p>` : doors ? `<section class="card">${doors}</section>` : ''}
<section class="card" aria-labelledby="dir-h"><h2 id="dir-h">${esc(t('keyPage.directions'))}</h2>
${view.room.notice ? `<p class="notice">${esc(view.room.notice)}</p>` : ''}${address}${phone}</section>`;
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

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(html);
}

export function registerKeyPage(app: FastifyInstance, deps: Deps) {
  const page = async (req: FastifyRequest, reply: FastifyReply, flash: { ok?: boolean; error?: string } = {}) => {
    const token = (req.params as { token: string }).token;
    const meta = { ...requestMeta(req), channel: undefined };
    try {
      const view = await viewKeyPage({ deps, meta }, { token });
      return send(reply, 200, viewHtml(deps, token, view, pageLanguage(req, view.language), flash));
    } catch (error) {
      const app = toAppError(error);
      const lang = pageLanguage(req, null);
      if (app.code === 'NOT_FOUND' || app.code === 'VALIDATION') return send(reply, 404, notFoundHtml(deps, lang));
      if (app.code === 'TOO_MANY_ATTEMPTS')
        return send(
          reply,
          429,
          shell(
            lang,
            describeAppError(app, lang, deps.i18n).message,
            `<p class="note bad" role="alert">${esc(describeAppError(app, lang, deps.i18n).message)}</p>`,
            (k) => deps.i18n.t(lang, k),
          ),
        );
      throw error;
    }
  };
  app.get('/k/:token', (req, reply) => page(req, reply, { ok: (req.query as { opened?: string }).opened === '1' }));
  app.post('/k/:token/open', async (req, reply) => {
    const token = (req.params as { token: string }).token;
    const lang = pageLanguage(req, null);
    try {
      const door = (req.body as { door?: unknown } | undefined)?.door;
      await openByKeyPage({ deps, meta: requestMeta(req) }, { token, door: door === undefined ? 'room' : typeof door === 'string' ? door : '' });
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'NOT_FOUND' || appError.code === 'VALIDATION') return send(reply, 404, notFoundHtml(deps, lang));
      if (!(error instanceof AppError) && appError.code === 'INTERNAL') throw error;
      return page(req, reply, { error: describeAppError(appError, lang, deps.i18n).message });
    }
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .redirect(`/k/${encodeURIComponent(token)}?lang=${lang}&opened=1`, 303);
  });
}
