import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { appErrorOf } from '@/lib/api-errors';
import { whenIdle } from '@/lib/lazy';

type FormSchema = z.ZodType<FieldValues, FieldValues>;

/**
 * react-hook-form with a shared zod schema of packages/shared: the same rules and message keys
 * as the server. `applyServerErrors` puts the server's translated field messages next to the fields.
 */
export function useAppForm<S extends FormSchema>(schema: S, defaultValues: z.input<S>) {
  return useFormWith<S>(zodResolver(schema as never) as Resolver<FieldValues>, defaultValues);
}

/**
 * `useAppForm` for a form shown before its schema is loaded (the sign-in page: zod is about 25 kB
 * gzipped, and not needed to show a form). `load` (a dynamic import) starts when the browser is idle
 * after the page has loaded, or at the first check of a field or of the form, whichever comes first
 * (issue 18 §4: it took the link from the page's largest paint); that first check waits for it,
 * every later one is as with `useAppForm`.
 */
export function useAppFormLoadingSchema<S extends FormSchema>(load: () => Promise<S>, defaultValues: z.input<S>) {
  const [{ resolver, start }] = useState(() => resolverLoadedBy(load));
  useEffect(() => whenIdle(() => void start().catch(() => undefined)), [start]);
  return useFormWith<S>(resolver, defaultValues);
}

function resolverLoadedBy(load: () => Promise<FormSchema>): { resolver: Resolver<FieldValues>; start: () => Promise<Resolver<FieldValues>> } {
  let loaded: Promise<Resolver<FieldValues>> | undefined;
  const start = () => {
    if (!loaded) {
      const loading = load().then((schema) => zodResolver(schema as never) as Resolver<FieldValues>);
      loaded = loading;
      // A failed load is reported when the form is checked (handleSubmit rejects), not as unhandled
      // here; the next check tries again.
      loading.catch(() => {
        if (loaded === loading) loaded = undefined;
      });
    }
    return loaded;
  };
  return { resolver: async (values, context, options) => (await start())(values, context, options), start };
}

function useFormWith<S extends FormSchema>(resolver: Resolver<FieldValues>, defaultValues: z.input<S>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: resolver as never,
    defaultValues: defaultValues as never,
    mode: 'onTouched',
  });
  return Object.assign(form, {
    applyServerErrors(error: unknown) {
      const fields = appErrorOf(error)?.fields;
      if (!fields) return;
      for (const [name, message] of Object.entries(fields)) {
        (form as unknown as UseFormReturn<FieldValues>).setError(name as Path<FieldValues>, { type: 'server', message });
      }
    },
  });
}
