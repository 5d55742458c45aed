import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { int, oneOf, optional, searchSchema, string, text, withDefault, withFallback } from './url-search';
import { searchInputs } from './url-search-inputs.test-support';

// Each reader of lib/url-search.ts against the zod schema it stands for; the routes' schemas are
// checked as wholes in the features' `*-search.test.ts`.
const PAIRS = [
  ['login redirect: z.string().optional().catch(undefined)', searchSchema({ v: optional(string()) }), z.object({ v: z.string().optional().catch(undefined) })],
  [
    'z.number().int().min(1).max(100).catch(20).default(20)',
    searchSchema({ v: withDefault(int({ min: 1, max: 100 }), 20) }),
    z.object({ v: z.number().int().min(1).max(100).catch(20).default(20) }),
  ],
  ['z.number().int().positive().catch(0)', searchSchema({ v: withFallback(int({ min: 1 }), 0) }), z.object({ v: z.number().int().positive().catch(0) })],
  [
    'z.number().int().positive().optional().catch(undefined)',
    searchSchema({ v: optional(int({ min: 1 })) }),
    z.object({ v: z.number().int().positive().optional().catch(undefined) }),
  ],
  ['z.enum([...]).catch(a).default(a)', searchSchema({ v: withDefault(oneOf(['a', 'b']), 'a') }), z.object({ v: z.enum(['a', 'b']).catch('a').default('a') })],
  [
    'z.enum([...]).optional().catch(undefined)',
    searchSchema({ v: optional(oneOf(['a', 'b'])) }),
    z.object({ v: z.enum(['a', 'b']).optional().catch(undefined) }),
  ],
  [
    "z.coerce.string().max(64).catch('').default('')",
    searchSchema({ v: withDefault(text({ max: 64 }), '') }),
    z.object({ v: z.coerce.string().max(64).catch('').default('') }),
  ],
] as const;

describe('URL search readers without zod', () => {
  for (const [name, ours, theirs] of PAIRS) {
    it(`read as ${name}`, () => {
      for (const input of searchInputs({ v: ['a', 'b', 1, 7, 'text'] })) {
        expect(ours['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(theirs['~standard'].validate(input));
      }
    });
  }

  it('refuse what is not an object, as z.object does', () => {
    const schema = searchSchema({ v: optional(string()) });
    for (const input of [null, undefined, 'v=1', 3, []]) expect(schema['~standard'].validate(input)).toHaveProperty('issues');
  });
});
