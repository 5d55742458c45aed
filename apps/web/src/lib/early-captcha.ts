import { trpcClient } from './trpc';

type Captcha = Awaited<ReturnType<typeof trpcClient.auth.captcha.mutate>>;
interface Early {
  at: number;
  answer: Promise<Captcha>;
}

declare global {
  interface Window {
    /** The graphic code the sign-in page asked for as it started (public/sign-in-early.js). */
    __signInCaptcha?: Early;
  }
}

/** A code asked for this long ago is not shown: it lives 2 minutes on the server. */
const FRESH_MS = 60_000;

let early: Early | undefined;

/**
 * The sign-in page's graphic code, asked for before the page's first render (issue 18 §4: the
 * picture is the page's largest paint, and it came one round trip after the form). The page asked
 * for it itself as it started (public/sign-in-early.js, named in the sign-in page by the server)
 * when it could: that answer is taken, or, when it failed, the code is asked for again here; else
 * it is asked for now.
 */
export function requestCaptchaEarly(): void {
  if (early) return;
  const fromPage = window.__signInCaptcha;
  window.__signInCaptcha = undefined;
  const answer = fromPage ? fromPage.answer.catch(() => trpcClient.auth.captcha.mutate()) : trpcClient.auth.captcha.mutate();
  // A failure is the form's to show, when it takes the answer (its mutation reports it as before).
  answer.catch(() => undefined);
  early = { at: fromPage?.at ?? Date.now(), answer };
}

/** The code asked for early, once and while fresh; undefined otherwise (the form asks for one). */
export function takeEarlyCaptcha(): Promise<Captcha> | undefined {
  const taken = early;
  early = undefined;
  return taken && Date.now() - taken.at < FRESH_MS ? taken.answer : undefined;
}
