import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { appErrorOf } from '@/lib/api-errors';

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
 * gzipped, and not needed to show a form). `load` (a dynamic import) starts when the form mounts;
 * the first check of a field or of the form waits for it, every later one is as with `useAppForm`.
 */
export function useAppFormLoadingSchema<S extends FormSchema>(load: () => Promise<S>, defaultValues: z.input<S>) {
  const [resolver] = useState(() => resolverLoadedBy(load));
  return useFormWith<S>(resolver, defaultValues);
}

function resolverLoadedBy(load: () => Promise<FormSchema>): Resolver<FieldValues> {
  const loaded = load().then((schema) => zodResolver(schema as never) as Resolver<FieldValues>);
  // A failed load is reported when the form is checked (handleSubmit rejects), not as unhandled here.
  loaded.catch(() => undefined);
  return async (values, context, options) => (await loaded)(values, context, options);
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
