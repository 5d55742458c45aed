import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ScanFace } from 'lucide-react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ZFacesOfGuestInput } from '@console/shared';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { CheckInFormOutput, CheckInFormValues } from './check-in-form';
import { stayQueries } from '../api';

type Form = UseFormReturn<CheckInFormValues, unknown, CheckInFormOutput>;

/** The main guest's mobile and ID number as typed, when they can be looked up. */
function useGuestKeys(form: Form) {
  const [mobile, idNumber] = useWatch({ control: form.control, name: ['guests.0.mobile', 'guests.0.idNumber'] });
  // One string, so that the debounced value only changes when what was typed does.
  const settled = useDebouncedValue(JSON.stringify([(mobile ?? '').trim(), (idNumber ?? '').trim()]), 300);
  return useMemo(() => {
    const [m, id] = JSON.parse(settled) as [string, string];
    const keys = { mobile: m || undefined, idNumber: id || undefined };
    return ZFacesOfGuestInput.safeParse(keys).success ? keys : null;
  }, [settled]);
}

/**
 * "Authorise the guest's face" at check-in, shown only where the guest has one: the faces of the
 * face database found by the main guest's mobile or ID number (a returning guest, a customer with a
 * face). Each one ticked is authorised on the room's lock for the new stay right after the check-in
 * succeeds, valid until its check-out and revoked with it.
 */
export function CheckInFace({ form }: { form: Form }) {
  const { t } = useTranslation();
  const keys = useGuestKeys(form);
  const faces = useQuery(stayQueries.guestFaces(keys));
  const found = useMemo(() => (keys ? (faces.data ?? []) : []), [keys, faces.data]);
  const chosen = useWatch({ control: form.control, name: 'authorizeFaceIds' });

  // A face no longer found (the mobile was changed) is not authorised.
  useEffect(() => {
    const ids = new Set(found.map((f) => f.id));
    if (chosen.some((id) => !ids.has(id)))
      form.setValue(
        'authorizeFaceIds',
        chosen.filter((id) => ids.has(id)),
      );
  }, [found, chosen, form]);

  if (found.length === 0) return null;
  return (
    <section className="space-y-3" aria-labelledby="check-in-face-heading" data-testid="check-in-face">
      <h3 id="check-in-face-heading" className="flex items-center gap-1.5 text-sm font-semibold">
        <ScanFace className="size-4" aria-hidden />
        {t('credentials.checkInFace.section')}
      </h3>
      <p id="check-in-face-hint" className="text-muted-foreground text-xs">
        {t('credentials.checkInFace.hint')}
      </p>
      <Controller
        control={form.control}
        name="authorizeFaceIds"
        render={({ field }) => (
          <ul className="grid gap-2">
            {found.map((face) => {
              const id = `authorize-face-${face.id}`;
              const checked = field.value.includes(face.id);
              return (
                <li key={face.id} className="flex items-center gap-3 rounded-md border p-2">
                  <Checkbox
                    id={id}
                    checked={checked}
                    onCheckedChange={(on) => field.onChange(on === true ? [...field.value, face.id] : field.value.filter((v) => v !== face.id))}
                    onBlur={field.onBlur}
                    aria-describedby="check-in-face-hint"
                    data-testid={id}
                  />
                  <img src={face.imageUrl} alt="" className="bg-muted size-10 shrink-0 rounded border object-cover" />
                  <Label htmlFor={id} className="grid gap-0.5 leading-snug font-normal">
                    <span>{t('credentials.checkInFace.toggle')}</span>
                    <span className="text-muted-foreground text-xs" dir="auto">
                      {face.faceId} · {face.note}
                    </span>
                  </Label>
                </li>
              );
            })}
          </ul>
        )}
      />
    </section>
  );
}
