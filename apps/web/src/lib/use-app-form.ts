import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { appErrorOf } from '@/lib/api-errors';

/**
 * react-hook-form with a shared zod schema of packages/shared: the same rules and message keys
 * as the server. `applyServerErrors` puts the server's translated field messages next to the fields.
 */
export function useAppForm<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, defaultValues: z.input<S>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as never,
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
