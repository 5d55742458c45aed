/*
 * The sign-in page's graphic code, asked for as the page starts (issue 18 §4): the code's picture is
 * the page's largest paint, and the console's own scripts would ask for it only once they have all
 * been downloaded and run. The server names this file in the sign-in page only (apps/server/src/
 * http/page-preloads.ts); the console takes the answer (apps/web/src/lib/early-captcha.ts), or asks
 * again through its tRPC client when this failed. The request is tRPC's own for `auth.captcha`
 * without batching (a POST with an empty object), in the language the page was sent in.
 */
(function () {
  'use strict';
  if (typeof fetch !== 'function' || typeof Promise !== 'function') return;
  window.__signInCaptcha = {
    at: Date.now(),
    answer: fetch('/trpc/auth.captcha', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', language: document.documentElement.lang || 'zh-CN' },
      body: '{}',
    })
      .then(function (response) {
        if (!response.ok) throw new Error('auth.captcha answered ' + response.status);
        return response.json();
      })
      .then(function (body) {
        var data = body && body.result && body.result.data;
        if (!data || typeof data.id !== 'string' || typeof data.svg !== 'string') throw new Error('auth.captcha: unexpected answer');
        return data;
      }),
  };
  // Not unhandled here: the console falls back to its own request.
  window.__signInCaptcha.answer.catch(function () {});
})();
