import { randomBytes } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { LIMITS } from '@console/shared';
import type { Deps } from '../context';

/**
 * Graphic verification codes (spec §5: 4 characters): an SVG made here, the answer kept in
 * Redis for LIMITS.captchaTtlSeconds, usable once. Characters that look alike are left out.
 */
export async function createCaptcha(deps: Pick<Deps, 'redis' | 'key'>): Promise<{ id: string; svg: string }> {
  const { text, data } = svgCaptcha.create({
    size: LIMITS.captchaLength,
    ignoreChars: '0oO1iIlLqg9',
    noise: 2,
    color: true,
    background: '#f1f5f9',
    width: 120,
    height: 40,
  });
  const id = randomBytes(16).toString('hex');
  await deps.redis.set(deps.key('captcha', id), text.toLowerCase(), 'EX', LIMITS.captchaTtlSeconds);
  return { id, svg: data };
}

/** True when `answer` matches; the code is consumed either way (single use). */
export async function consumeCaptcha(deps: Pick<Deps, 'redis' | 'key'>, id: string, answer: string): Promise<boolean> {
  if (!/^[0-9a-f]{32}$/.test(id)) return false;
  const expected = await deps.redis.getdel(deps.key('captcha', id));
  return expected !== null && expected === answer.trim().toLowerCase();
}
