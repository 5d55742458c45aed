import { describe, expect, it } from 'vitest';
import ar from '../../../../../locales/ar.json';
import en from '../../../../../locales/en.json';
import zhCN from '../../../../../locales/zh-CN.json';
import { taskTimesText } from './task-times';

const translator =
  (messages: { housekeepingKeys: Record<string, string> }) =>
  (key: string, params: Record<string, string> = {}) =>
    messages.housekeepingKeys[key.replace('housekeepingKeys.', '')]!.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');

describe("a task's times: entered (the attendant's first opening) and done", () => {
  const task = { enteredAt: '2026-12-09T02:02:40Z', doneAt: '2026-12-09T02:31:05Z', startedAt: '2026-12-09T02:01:00Z' };

  it("writes both in the hotel's time zone, in the interface language", () => {
    expect(taskTimesText(task, 'Asia/Shanghai', 'en', translator(en))).toEqual(['Entered 10:02', 'Done 10:31']);
    expect(taskTimesText(task, 'Asia/Shanghai', 'zh-CN', translator(zhCN))).toEqual(['10:02 进入', '10:31 完成']);
    expect(taskTimesText(task, 'Europe/Berlin', 'en', translator(en))).toEqual(['Entered 03:02', 'Done 03:31']);
    // Right to left, the time as the Arabic interface writes it.
    expect(taskTimesText(task, 'Asia/Shanghai', 'ar', translator(ar))).toEqual([
      `دخلت ${new Intl.DateTimeFormat('ar', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Shanghai' }).format(new Date(task.enteredAt))}`,
      expect.stringMatching(/^انتهت /),
    ]);
  });

  it('says when a begun task was never opened by its code, and nothing for a task not begun', () => {
    expect(taskTimesText({ enteredAt: null, doneAt: null, startedAt: '2026-12-09T02:01:00Z' }, 'UTC', 'en', translator(en))).toEqual(['Not entered yet']);
    expect(taskTimesText({ enteredAt: null, doneAt: null }, 'UTC', 'en', translator(en))).toEqual([]);
  });
});
