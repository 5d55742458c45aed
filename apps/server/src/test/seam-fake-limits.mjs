// OUR layer (not Seam's), part of seam-fake-server.mjs: Seam's documented per-device call limits
// (rate-limits-and-guardrails: create 10, update 10, delete 20, unlock 15, lock 15 a minute), which
// Seam's fake does not have. A call over its limit is answered 429 with Retry-After (the body is a
// guess) and is not forwarded. Counted for the benchmarks (bench/README.md, sections 21 and 22): the
// 429s answered, and the most calls of a kind one device sent within any window (the minute), those
// answered 429 included: above its limit only if some were.

/** The limited routes, by their kind of limit. */
export const BUDGETED = {
  '/access_codes/create': 'create',
  '/access_codes/update': 'update',
  '/access_codes/delete': 'delete',
  '/locks/unlock_door': 'unlock',
  '/locks/lock_door': 'lock',
};

const KINDS = ['create', 'update', 'delete', 'unlock', 'lock'];
const zero = () => ({
  refused: Object.fromEntries(KINDS.map((k) => [k, 0])),
  peak: Object.fromEntries(KINDS.map((k) => [k, { calls: 0, device_id: null }])),
});

/** The limits (changed by the control's /budget) and what was spent against them. */
export function createLimits() {
  const budget = { windowMs: 60_000, limits: { create: 10, update: 10, delete: 20, unlock: 15, lock: 15 } };
  const spent = new Map(); // `${device_id} ${kind}` -> times of the calls let through within the window
  const sent = new Map(); // the same key -> times of every call within the window (429s included)
  let counts = zero();
  return {
    budget,
    /** The 429 answer when the device spent its limit within the window; else null, the call counted. */
    check(kind, deviceId, now) {
      const key = `${deviceId} ${kind}`;
      const tried = (sent.get(key) ?? []).filter((t) => t > now - budget.windowMs);
      tried.push(now);
      sent.set(key, tried);
      // The calls of this kind the device sent within the window ending now: the most in any window.
      if (tried.length > counts.peak[kind].calls) counts.peak[kind] = { calls: tried.length, device_id: deviceId };
      const times = (spent.get(key) ?? []).filter((t) => t > now - budget.windowMs);
      spent.set(key, times);
      if (times.length >= budget.limits[kind]) {
        counts.refused[kind] += 1;
        const seconds = Math.max(1, Math.ceil(((times[0] ?? now) + budget.windowMs - now) / 1000));
        const body = {
          ok: false,
          error: { type: 'rate_limit_exceeded', message: `OUR layer: more than ${budget.limits[kind]} ${kind} calls a minute on ${deviceId}` },
        };
        return { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(seconds) }, body: Buffer.from(JSON.stringify(body)) };
      }
      times.push(now);
      return null;
    },
    /** The 429s answered and the peaks since the last reset (`reset`: counted anew from now). */
    counts(reset = false) {
      const answer = { ...JSON.parse(JSON.stringify(counts)), limits: { ...budget.limits }, windowMs: budget.windowMs };
      if (reset) counts = zero();
      return answer;
    },
  };
}
