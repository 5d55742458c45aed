import { useMutation, useQuery } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { queryClient, trpc } from '@/lib/trpc';
import { writeUserInfo } from '@/lib/user-info';
import { layoutQueries } from './api';

/**
 * The hotels of an account of several hotels, in the open user menu (issue 9 §1): asked for when
 * the menu opens (this part of the menu mounts with it), the current one checked. Choosing another
 * moves the session there (auth.switchHotel, docs/decisions/017-hotel-switch-in-the-session.md):
 * the stored user info becomes the new hotel's (role, permissions, flags, time zone, currency), the
 * cached answers of the old hotel are dropped, and the console starts again at its home page, so
 * that no screen, list or per-hotel state of the old hotel stays (as a change of language does).
 */
export function HotelSwitch() {
  const { t } = useTranslation();
  const hotels = useQuery(layoutQueries.hotels());
  const switchHotel = useMutation(
    trpc.auth.switchHotel.mutationOptions({
      onSuccess: (user) => {
        writeUserInfo(user);
        queryClient.clear();
        window.location.assign('/');
      },
      onError: () => void hotels.refetch(),
    }),
  );
  const labelId = 'hotel-switch-label';
  return (
    <>
      <DropdownMenuLabel id={labelId} className="text-muted-foreground text-xs font-normal">
        {t('layout.switchHotel')}
      </DropdownMenuLabel>
      <div role="group" aria-labelledby={labelId} data-testid="hotel-switch">
        {!hotels.data ? (
          <DropdownMenuItem disabled>{t('common.loading')}</DropdownMenuItem>
        ) : (
          hotels.data.map((hotel) => {
            const isCurrent = hotel.current;
            return (
              <DropdownMenuItem
                key={hotel.id}
                role="menuitemradio"
                aria-checked={isCurrent}
                data-testid={`hotel-choice-${hotel.id}`}
                disabled={switchHotel.isPending}
                onSelect={(event) => {
                  if (isCurrent) return;
                  // The menu stays open while the switch runs; the page then starts again.
                  event.preventDefault();
                  switchHotel.mutate({ hotelId: hotel.id });
                }}
              >
                <Check className={isCurrent ? 'size-4' : 'invisible size-4'} aria-hidden />
                <span className="truncate">{hotel.name}</span>
              </DropdownMenuItem>
            );
          })
        )}
      </div>
      <DropdownMenuSeparator />
    </>
  );
}
