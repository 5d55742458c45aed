import { forwardRef, useEffect, useState } from 'react';
import type { Locale } from 'date-fns';
import { CalendarDays } from 'lucide-react';
import { DayPicker } from 'react-day-picker';
import { useTranslation } from 'react-i18next';
import { LOCAL_DATETIME_REGEX, isLocalDate, isLocalDateTime } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { loadDateLocale } from '@/lib/date-locale';
import { todayInHotel } from '@/lib/hotel-time';
import { currentLanguage } from '@/lib/language';
import { cn } from '@/lib/utils';
import 'react-day-picker/style.css';

/**
 * A wall-clock time of the hotel (`YYYY-MM-DDTHH:mm`, or a date `YYYY-MM-DD` with `withTime={false}`),
 * in the console's language whatever the browser's: typed as digits, or picked on a calendar whose
 * month and day names, first day of the week and direction follow the console, and read back under
 * the field in words ("Sunday 22 November 2026, 14:00, Asia/Shanghai"). The value is the same text a
 * datetime-local input holds, so forms convert it with `fromInputValue` as before.
 */
interface DateTimeFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  timeZone: string;
  withTime?: boolean;
  invalid?: boolean;
  disabled?: boolean;
  /** ids of the hint and error texts of the field. */
  describedBy?: string;
  autoFocus?: boolean;
  className?: string;
  'data-testid'?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-22T14:00` as typed text (`2026-11-22 14:00`), and back. */
const toText = (value: string) => value.replace('T', ' ');
const fromText = (text: string) => text.trim().replace(/\s+/, 'T');

function parts(value: string) {
  const m = LOCAL_DATETIME_REGEX.exec(value) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  return { y: Number(m[1]), mo: Number(m[2]), d: Number(m[3]), h: m[4] ? Number(m[4]) : 0, mi: m[5] ? Number(m[5]) : 0 };
}

/** The value in words, in the console's language (calendar arithmetic in UTC: the value is already the hotel's wall clock). */
export function describeWallClock(value: string, withTime: boolean, timeZone: string): string | undefined {
  if (!(withTime ? isLocalDateTime(value) : isLocalDate(value))) return undefined;
  const p = parts(value)!;
  const at = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi);
  const text = new Intl.DateTimeFormat(currentLanguage().header, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
    timeZone: 'UTC',
  }).format(at);
  return withTime ? `${text} · ${timeZone}` : text;
}

export const DateTimeField = forwardRef<HTMLInputElement, DateTimeFieldProps>(function DateTimeField(
  { id, value, onChange, onBlur, timeZone, withTime = true, invalid, disabled, describedBy, autoFocus, className, 'data-testid': testId },
  ref,
) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [locale, setLocale] = useState<Locale | undefined>();
  const [isOpen, setIsOpen] = useState(false);
  useEffect(() => {
    let alive = true;
    void loadDateLocale(language.header).then((l) => alive && setLocale(l));
    return () => {
      alive = false;
    };
  }, [language.header]);

  const p = parts(value);
  const selected = p ? new Date(p.y, p.mo - 1, p.d) : undefined;
  const time = p && withTime ? `${pad(p.h)}:${pad(p.mi)}` : '';
  const [today] = useState(() => {
    const [y, mo, d] = todayInHotel(timeZone).split('-').map(Number) as [number, number, number];
    return new Date(y, mo - 1, d);
  });
  const reading = describeWallClock(value, withTime, timeZone);
  const readingId = `${id}-reading`;

  const pickDay = (day: Date | undefined) => {
    if (!day) return;
    const date = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    onChange(withTime ? `${date}T${time || '12:00'}` : date);
    if (!withTime) setIsOpen(false);
  };
  const setTime = (text: string) => {
    if (!p || !/^\d{2}:\d{2}$/.test(text)) return;
    onChange(`${p.y}-${pad(p.mo)}-${pad(p.d)}T${text}`);
  };

  return (
    <div className={cn('grid gap-1', className)}>
      <div className="flex gap-2">
        <Input
          ref={ref}
          id={id}
          value={toText(value)}
          onChange={(e) => onChange(fromText(e.target.value))}
          onBlur={onBlur}
          placeholder={withTime ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD'}
          inputMode="numeric"
          autoComplete="off"
          dir="ltr"
          className="min-w-0 flex-1 text-start tabular-nums"
          aria-invalid={invalid || undefined}
          aria-describedby={[readingId, describedBy].filter(Boolean).join(' ') || undefined}
          disabled={disabled}
          autoFocus={autoFocus}
          data-testid={testId}
        />
        <Popover open={isOpen} onOpenChange={setIsOpen}>
          <PopoverTrigger asChild>
            <Button type="button" variant="outline" size="icon" disabled={disabled} aria-label={t('common.pickDate')} data-testid={testId ? `${testId}-calendar` : undefined}>
              <CalendarDays aria-hidden />
            </Button>
          </PopoverTrigger>
          <PopoverContent className="w-auto p-2" align="end" dir={language.dir}>
            <DayPicker
              mode="single"
              locale={locale}
              dir={language.dir}
              selected={selected}
              defaultMonth={selected ?? today}
              today={today}
              onSelect={pickDay}
              showOutsideDays
              fixedWeeks
              className="text-sm"
            />
            {withTime && (
              <div className="flex items-center gap-2 border-t px-2 pt-2">
                <label htmlFor={`${id}-time`} className="text-muted-foreground text-sm">
                  {t('common.time')}
                </label>
                <Input
                  id={`${id}-time`}
                  key={time}
                  defaultValue={time}
                  onBlur={(e) => setTime(e.target.value)}
                  onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), setTime(e.currentTarget.value), setIsOpen(false))}
                  placeholder="HH:mm"
                  inputMode="numeric"
                  dir="ltr"
                  className="w-24 tabular-nums"
                  disabled={!p}
                  data-testid={testId ? `${testId}-time` : undefined}
                />
                <Button type="button" size="sm" className="ms-auto" onClick={() => setIsOpen(false)}>
                  {t('common.done')}
                </Button>
              </div>
            )}
          </PopoverContent>
        </Popover>
      </div>
      <p id={readingId} className="text-muted-foreground min-h-4 text-xs" data-testid={testId ? `${testId}-reading` : undefined}>
        {reading ?? ''}
      </p>
    </div>
  );
});
