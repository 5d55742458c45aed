import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsMessage, SmsSender } from '../infra/sms';
import { createTestContext, type TestContext } from '../test/harness';
import { SMS_JOB_OPTIONS } from './queues';
import { startWorkers } from './workers';

/** A provider that is down for its first two calls. */
function flakySender() {
  const sent: SmsMessage[] = [];
  let calls = 0;
  const sender: SmsSender = {
    name: 'flaky',
    async send(message) {
      calls += 1;
      if (calls <= 2) throw new Error('provider unavailable');
      sent.push(message);
    },
  };
  return { sender, sent, calls: () => calls };
}

describe('SMS queue', () => {
  const flaky = flakySender();
  let ctx: TestContext;
  let workers: ReturnType<typeof startWorkers>;
  beforeAll(async () => {
    ctx = await createTestContext({ sms: flaky.sender });
    workers = startWorkers(ctx.deps, { sweep: false });
  });
  afterAll(async () => {
    await workers.close();
    await ctx.close();
  });

  it('retries a failed send with backoff until the provider answers, rendering the text in the job language', async () => {
    expect(SMS_JOB_OPTIONS.attempts).toBeGreaterThanOrEqual(5);
    const job = await ctx.deps.queues.sms.add(
      'resetCode',
      { to: '13800138000', template: 'resetCode', params: { code: '246810', minutes: 10 }, lang: 'de' },
      { backoff: { type: 'fixed', delay: 100 } },
    );
    // The provider takes the text before BullMQ records the job done: wait for the job's state, the thing checked.
    await expect.poll(async () => (await ctx.deps.queues.sms.getJob(job.id!))?.getState(), { timeout: 20_000 }).toBe('completed');
    expect(flaky.calls()).toBe(3);
    expect(flaky.sent).toHaveLength(1);
    expect(flaky.sent[0]!.to).toBe('13800138000');
    expect(flaky.sent[0]!.text).toContain('246810');
    const done = await ctx.deps.queues.sms.getJob(job.id!);
    expect(done?.attemptsMade).toBe(3);
  });
});
