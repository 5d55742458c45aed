/**
 * The routes' URL search schemas (`validateSearch`), without zod. The router holds them from the
 * start, so whatever they import is in every page's first download, and zod is about 25 kB
 * gzipped of it (zod/mini still brings zod's core, which the form schemas share). These few
 * readers do what the zod schemas they replace did, value for value (the `*-search.test.ts` files
 * check them against those schemas), and are Standard Schemas, which the router reads like zod's.
 *
 * A field never fails: what the URL holds is read, or replaced by a fallback, as zod's `.catch`
 * did. Keys not in the shape are dropped, as `z.object` does.
 */

/** What a parser returns for a value it does not take. */
const INVALID: unique symbol = Symbol('invalid');
type Parsed<T> = T | typeof INVALID;
type Parser<T> = (value: unknown) => Parsed<T>;

/** One key of a search object: `In` is what a link may give, `Out` what the page reads. */
export interface SearchField<In, Out> {
  /** The field's value for what the URL holds at its key (`undefined` when absent). */
  read(value: unknown): Out;
  /** True when a key absent from the URL stays absent from the result (zod's optional keys). */
  readonly isOptional: boolean;
  /** Types only. */
  readonly types?: { readonly input: In; readonly output: Out };
}

// -------------------------------------------------------------------------------------------------
// Parsers: the checks of zod's `z.number().int()...`, `z.enum`, `z.coerce.string()`, `z.string()`.

/** `z.number().int().min(min).max(max)` (`.positive()` is `min: 1` for an integer). */
export function int({ min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}): Parser<number> {
  return (value) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max ? value : INVALID);
}

/** `z.enum(values)`. */
export function oneOf<const T extends readonly string[]>(values: T): Parser<T[number]> {
  return (value) => (values.includes(value as T[number]) ? (value as T[number]) : INVALID);
}

/** `z.coerce.string().max(max)`: a number the URL parser made of digits is still text. */
export function text({ max }: { max: number }): Parser<string> {
  return (value) => {
    let string: string;
    try {
      string = String(value);
    } catch {
      return INVALID;
    }
    return string.length <= max ? string : INVALID;
  };
}

/** `z.string()`, with `.regex(pattern)` and `.refine(accept)` when given. */
export function string({ pattern, accept }: { pattern?: RegExp; accept?: (value: string) => boolean } = {}): Parser<string> {
  return (value) => {
    if (typeof value !== 'string') return INVALID;
    if (pattern) {
      pattern.lastIndex = 0;
      if (!pattern.test(value)) return INVALID;
    }
    return !accept || accept(value) ? value : INVALID;
  };
}

// -------------------------------------------------------------------------------------------------
// Fields: how zod's `.catch`, `.default` and `.optional` wrapped those checks.

/** `<parser>.catch(fallback).default(whenAbsent)`: always set; absent is `whenAbsent`, invalid is `fallback`. */
export function withDefault<T, const F extends T>(parse: Parser<T>, fallback: F, whenAbsent: F = fallback): SearchField<T | undefined, T> {
  return { isOptional: false, read: (value) => (value === undefined ? whenAbsent : orElse(parse(value), fallback)) };
}

/** `<parser>.catch(fallback)` alone: always set; absent or invalid is `fallback`. */
export function withFallback<T, const F extends T>(parse: Parser<T>, fallback: F): SearchField<T, T> {
  return { isOptional: false, read: (value) => orElse(parse(value), fallback) };
}

/** `<parser>.optional().catch(undefined)`: absent stays absent; invalid is `undefined`. */
export function optional<T, In = T>(parse: Parser<T>): SearchField<In | undefined, T | undefined> {
  return { isOptional: true, read: (value) => (value === undefined ? undefined : orElse(parse(value), undefined)) };
}

function orElse<T, F>(parsed: Parsed<T>, fallback: F): T | F {
  return parsed === INVALID ? fallback : parsed;
}

// -------------------------------------------------------------------------------------------------
// The schema: `z.object(shape)`.

type AnyField = SearchField<unknown, unknown>;
type InOf<F> = F extends SearchField<infer In, unknown> ? In : never;
type OutOf<F> = F extends SearchField<unknown, infer Out> ? Out : never;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
/** Keys whose type takes `undefined` are optional, as in zod's input and output types. */
type WithOptionalKeys<T> = Flatten<
  { [K in keyof T as undefined extends T[K] ? K : never]?: T[K] } & { [K in keyof T as undefined extends T[K] ? never : K]: T[K] }
>;

export type SearchInput<S extends Record<string, AnyField>> = WithOptionalKeys<{ [K in keyof S]: InOf<S[K]> }>;
export type SearchOutput<S extends Record<string, AnyField>> = WithOptionalKeys<{ [K in keyof S]: OutOf<S[K]> }>;

/** A route's `validateSearch`: a Standard Schema (https://standardschema.dev), as zod's are. */
export interface SearchSchema<S extends Record<string, AnyField>> {
  readonly shape: S;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'console';
    readonly validate: (
      input: unknown,
    ) => { readonly value: SearchOutput<S>; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string }[] };
    readonly types?: { readonly input: SearchInput<S>; readonly output: SearchOutput<S> };
  };
}

/** The value a page reads from a search schema (what `z.output` gave). */
export type SearchOf<T> = T extends SearchSchema<infer S> ? SearchOutput<S> : never;

export function searchSchema<S extends Record<string, AnyField>>(shape: S): SearchSchema<S> {
  const validate = (input: unknown) => {
    // The router always hands over an object (its parse of the query string).
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return { issues: [{ message: 'expected an object' }] };
    const search = input as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      const isPresent = key in search;
      if (!isPresent && field.isOptional) continue;
      // A key the URL holds stays in the result even when it reads as undefined, as with zod.
      value[key] = field.read(search[key]);
    }
    return { value: value as SearchOutput<S> };
  };
  return { shape, '~standard': { version: 1, vendor: 'console', validate } };
}
