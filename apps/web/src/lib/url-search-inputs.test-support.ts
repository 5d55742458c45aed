/**
 * For the tests of the routes' URL search schemas (`*-search.test.ts`): search objects as the
 * router's URL parser can hand them over (numbers, strings, booleans, null, objects, arrays),
 * valid and not, one key at a time, the key absent, and all keys at once.
 */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  2,
  -1,
  1.5,
  20,
  50,
  100,
  101,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  ' ',
  '1',
  '42',
  'abc',
  '101',
  'x'.repeat(64),
  'x'.repeat(65),
  'x'.repeat(1000),
  'x'.repeat(1001),
  '2026-02-28',
  '2026-02-30',
  '2026-13-01',
  '2026-2-3',
  '2026-02-28T10:00',
  {},
  { a: 1 },
  [],
  ['a'],
];

/** Every value of `ODD_VALUES` and of `valid` for each key alone, no key at all, and every key together with a valid value. */
export function searchInputs(keys: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  const inputs: Record<string, unknown>[] = [{}, { unrelated: 'x' }];
  for (const [key, valid] of Object.entries(keys)) {
    for (const value of [...ODD_VALUES, ...valid]) inputs.push({ [key]: value });
  }
  const all = Object.entries(keys);
  const longest = Math.max(...all.map(([, valid]) => valid.length));
  for (let i = 0; i < longest; i++) inputs.push(Object.fromEntries(all.map(([key, valid]) => [key, valid[i % valid.length]])));
  return inputs;
}
