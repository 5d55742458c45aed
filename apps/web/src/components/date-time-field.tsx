import { forwardRef, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Locale } from 'date-fns';
import { CalendarDays } from 'lucide-react';
import { DayPicker, type Labels } from 'react-day-picker';
import { useTranslation } from 'react-i18next';
import { LOCAL_DATETIME_REGEX, isLocalDate, isLocalDateTime } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { loadDateLocale } from '@/lib/date-locale';
import { DATE_FORMAT, DATE_TIME_FORMAT, parseTypedDate, parseTypedTime, typedText, valueOfText } from '@/lib/date-text';
import { todayInHotel } from '@/lib/hotel-time';
import { currentLanguage } from '@/lib/language';
import { cn } from '@/lib/utils';
import 'react-day-picker/style.css';

/**
 * The console's one date-time field: a wall-clock time of the hotel (`YYYY-MM-DDTHH:mm`), or a day
 * (`YYYY-MM-DD`) with `withTime={false}`, whatever the browser's zone and language.
 *
 * - Typed: the field keeps what is typed as its text (a space stays a space) and gives the form
 *   the value as soon as the text reads as one (lib/date-text.ts says what is read: the format the
 *   placeholder shows, a `T`, one-digit months, days and hours, full-width and Arabic-Indic digits;
 *   nothing that could mean two things). Text that does not read is given as it is, so the form's
 *   own check says "incorrect time format" instead of dropping it; blank is ''. On leaving the
 *   field the text is rewritten in the shown format (`2026-1-5 9:00` becomes `2026-01-05 09:00`).
 *   A value set from outside (a quick button, a reset) replaces the text.
 * - Picked: a calendar in the console's language (month and day names, first day of the week,
 *   direction, and the screen-reader labels of its buttons, days and month caption), then the time.
 *   Keyboard: Alt+Down in the text (or Enter on the calendar button) opens it on the chosen day or
 *   today; arrows move by day and week, Page Up/Down by month; Enter picks; with a time, the focus
 *   goes to the time, where Enter sets it and closes; Escape closes and gives the focus back.
 * - Read back under the field in words ("Thursday 26 November 2026, 12:00"), with the hotel's time
 *   zone stated for a date-time (times are the hotel's, not the browser's).
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
  /**
   * The time (`HH:mm`) a day picked on the calendar gets (a check-in: now today, the hotel's
   * check-in time another day). Without it the day keeps the field's time, or 12:00.
   */
  timeForPickedDay?(date: string): string;
  'data-testid'?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

function parts(value: string) {
  const m = LOCAL_DATETIME_REGEX.exec(value) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  return { y: Number(m[1]), mo: Number(m[2]), d: Number(m[3]), h: m[4] ? Number(m[4]) : 0, mi: m[5] ? Number(m[5]) : 0 };
}

/** The value in words, in the console's language (calendar arithmetic in UTC: the value is already the hotel's wall clock). */
export function describeWallClock(value: string, withTime: boolean): string | undefined {
  if (!(withTime ? isLocalDateTime(value) : isLocalDate(value))) return undefined;
  const p = parts(value)!;
  const at = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi);
  return new Intl.DateTimeFormat(currentLanguage().header, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
    timeZone: 'UTC',
  }).format(at);
}

/** The calendar's screen-reader labels in the console's language (react-day-picker's own are English). */
function useCalendarLabels(): Partial<Labels> {
  const { t } = useTranslation();
  const language = currentLanguage().header;
  return useMemo(() => {
    // The calendar's days are the browser's local midnights standing for the hotel's dates.
    const day = new Intl.DateTimeFormat(language, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
    const month = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long' });
    const weekday = new Intl.DateTimeFormat(language, { weekday: 'long' });
    const dayLabel = (date: Date, modifiers: { today?: boolean; selected?: boolean } | undefined) => {
      let label = day.format(date);
      if (modifiers?.today) label = t('dateField.calendar.today', { date: label });
      if (modifiers?.selected) label = t('dateField.calendar.selected', { date: label });
      return label;
    };
    return {
      labelNav: () => t('dateField.calendar.navigation'),
      // The month shown is said by the caption (a live region) once it has changed.
      labelPrevious: () => t('dateField.calendar.previousMonth'),
      labelNext: () => t('dateField.calendar.nextMonth'),
      labelGrid: (date: Date) => month.format(date),
      labelGridcell: (date: Date, modifiers?: { today?: boolean; selected?: boolean }) => dayLabel(date, modifiers),
      labelDayButton: (date: Date, modifiers: { today?: boolean; selected?: boolean }) => dayLabel(date, modifiers),
      labelWeekday: (date: Date) => weekday.format(date),
    };
  }, [t, language]);
}

export const DateTimeField = forwardRef<HTMLInputElement, DateTimeFieldProps>(function DateTimeField(
  { id, value, onChange, onBlur, timeZone, withTime = true, invalid, disabled, describedBy, autoFocus, className, timeForPickedDay, 'data-testid': testId },
  ref,
) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const labels = useCalendarLabels();
  const [locale, setLocale] = useState<Locale | undefined>();
  const [isOpen, setIsOpen] = useState(false);
  const [isFocused, setIsFocused] = useState(false);
  const timeInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLInputElement | null>(null);
  const popover = useRef<HTMLDivElement>(null);
  /** Where the focus goes back when the calendar closes: the text when it was opened from there, else its button. */
  const openedFromText = useRef(false);
  useEffect(() => {
    let alive = true;
    void loadDateLocale(language.header).then((l) => alive && setLocale(l));
    return () => {
      alive = false;
    };
  }, [language.header]);

  // What is typed stays the text; a value from outside that the text does not mean replaces it.
  const [text, setText] = useState(() => typedText(value));
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    if (value !== valueOfText(text, withTime) && value !== valueOfText(text, withTime, { typing: true })) setText(typedText(value));
  }
  /** The value the text means once left (undefined: blank or not a time). */
  const meant = parseTypedDate(text, withTime);

  const type = (next: string) => {
    setText(next);
    const given = valueOfText(next, withTime, { typing: true });
    if (given !== value) onChange(given);
  };
  /** Leaving the field (or Enter): the text read as a whole, and written in the shown format. */
  const commit = () => {
    const given = valueOfText(text, withTime);
    if (given !== value) onChange(given);
    if (meant) setText(typedText(meant));
  };
  /** A value chosen on the calendar or its time box. */
  const choose = (next: string) => {
    setText(typedText(next));
    if (next !== value) onChange(next);
  };

  const p = parts(meant ?? value);
  const selected = p ? new Date(p.y, p.mo - 1, p.d) : undefined;
  const time = p && withTime ? `${pad(p.h)}:${pad(p.mi)}` : '';
  const [timeText, setTimeText] = useState(time);
  const [today] = useState(() => {
    const [y, mo, d] = todayInHotel(timeZone).split('-').map(Number) as [number, number, number];
    return new Date(y, mo - 1, d);
  });
  const readingId = `${id}-reading`;
  const isUnreadable = !meant && text.trim() !== '' && !isFocused;
  const reading = [
    meant ? describeWallClock(meant, withTime) : isUnreadable ? t('dateField.typeAs', { format: withTime ? DATE_TIME_FORMAT : DATE_FORMAT }) : undefined,
    withTime ? t('dateField.hotelTime', { zone: timeZone }) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');

  const open = (next: boolean, fromText = false) => {
    if (next) {
      setTimeText(time);
      openedFromText.current = fromText;
    }
    setIsOpen(next);
  };
  const pickDay = (day: Date | undefined) => {
    if (!day) return;
    const date = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    if (!withTime) {
      choose(date);
      setIsOpen(false);
      return;
    }
    const at = timeForPickedDay?.(date) ?? (time || '12:00');
    choose(`${date}T${at}`);
    setTimeText(at);
    // The time next: the box under the calendar, its text selected to be typed over.
    requestAnimationFrame(() => {
      timeInput.current?.focus();
      timeInput.current?.select();
    });
  };
  /** The time box's text, once it reads as a time, on the chosen day. */
  const setTime = () => {
    const at = parseTypedTime(timeText);
    if (!p || !at) return false;
    choose(`${p.y}-${pad(p.mo)}-${pad(p.d)}T${at}`);
    setTimeText(at);
    return true;
  };
  /**
   * The keyboard goes to the calendar's chosen day (or today): its one day button in the tab order.
   * Tried again for a few frames: the popover is placed (and can hold the focus) after it mounts.
   */
  const focusDay = (frames = 10) => {
    const day = popover.current?.querySelector<HTMLButtonElement>('button.rdp-day_button[tabindex="0"]');
    day?.focus();
    if (frames > 0 && (!day || document.activeElement !== day)) requestAnimationFrame(() => focusDay(frames - 1));
  };
  const onTextKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && e.altKey) {
      e.preventDefault();
      commit();
      open(true, true);
    } else if (e.key === 'Enter') {
      commit();
    }
  };
  const timeInvalid = timeText.trim() !== '' && !parseTypedTime(timeText);

  return (
    <div className={cn('grid gap-1', className)}>
      <div className="flex gap-2">
        <Input
          ref={(element) => {
            textInput.current = element;
            if (typeof ref === 'function') ref(element);
            else if (ref) ref.current = element;
          }}
          id={id}
          value={text}
          onChange={(e) => type(e.target.value)}
          onFocus={() => setIsFocused(true)}
          onBlur={() => {
            setIsFocused(false);
            commit();
            onBlur?.();
          }}
          onKeyDown={onTextKeyDown}
          placeholder={withTime ? DATE_TIME_FORMAT : DATE_FORMAT}
          autoComplete="off"
          spellCheck={false}
          dir="ltr"
          className="min-w-0 flex-1 text-start tabular-nums"
          aria-invalid={invalid || isUnreadable || undefined}
          aria-describedby={[readingId, describedBy].filter(Boolean).join(' ') || undefined}
          aria-keyshortcuts="Alt+ArrowDown"
          disabled={disabled}
          autoFocus={autoFocus}
          data-testid={testId}
        />
        <Popover open={isOpen} onOpenChange={open}>
          <PopoverTrigger asChild>
            <Button
              type="button"
              variant="outline"
              size="icon"
              disabled={disabled}
              aria-label={t('common.pickDate')}
              data-testid={testId ? `${testId}-calendar` : undefined}
            >
              <CalendarDays aria-hidden />
            </Button>
          </PopoverTrigger>
          <PopoverContent
            className="w-auto p-2"
            align="end"
            dir={language.dir}
            aria-label={t('common.pickDate')}
            ref={popover}
            onOpenAutoFocus={(e) => {
              e.preventDefault();
              focusDay();
            }}
            onCloseAutoFocus={(e) => {
              if (!openedFromText.current) return;
              e.preventDefault();
              textInput.current?.focus();
            }}
            data-testid={testId ? `${testId}-popover` : undefined}
          >
            <DayPicker
              mode="single"
              locale={locale}
              labels={labels}
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
                  ref={timeInput}
                  id={`${id}-time`}
                  value={timeText}
                  onChange={(e) => setTimeText(e.target.value)}
                  onBlur={() => void setTime()}
                  onKeyDown={(e) => {
                    if (e.key !== 'Enter') return;
                    e.preventDefault();
                    if (setTime()) setIsOpen(false);
                  }}
                  placeholder="HH:mm"
                  autoComplete="off"
                  dir="ltr"
                  className="w-24 tabular-nums"
                  disabled={!p}
                  aria-invalid={timeInvalid || undefined}
                  data-testid={testId ? `${testId}-time` : undefined}
                />
                <Button
                  type="button"
                  size="sm"
                  className="ms-auto"
                  onClick={() => {
                    setTime();
                    setIsOpen(false);
                  }}
                  data-testid={testId ? `${testId}-done` : undefined}
                >
                  {t('common.done')}
                </Button>
              </div>
            )}
          </PopoverContent>
        </Popover>
      </div>
      <p
        id={readingId}
        className={cn('min-h-4 text-xs', isUnreadable ? 'text-destructive' : 'text-muted-foreground')}
        data-testid={testId ? `${testId}-reading` : undefined}
      >
        {reading}
      </p>
    </div>
  );
});
