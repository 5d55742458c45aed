import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first, in each project: a long file started last is minutes of one worker
 * alone at the end of a run (the browser sweep of every page, 4 to 5 minutes, started last on a
 * fresh clone, where vitest has no timings of its own and starts the biggest files first). The
 * seconds are test-durations.json's (scripts/test-durations.mjs writes them from a run's reports);
 * a file it does not name (a new one) comes before those it names, in vitest's own order: started
 * last, 28 new files ran at the end of CI's runs of 2026-11-29 (the browser project's last file,
 * 24 s, alone on one core with the other idle). A short file started early costs nothing. Only
 * the order changes, never what runs.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const file = path.join(this.ctx.config.root, 'test-durations.json');
    const durations: Record<string, Record<string, number>> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    const seconds = (spec: TestSpecification) => durations[spec.project.name]?.[path.relative(this.ctx.config.root, spec.moduleId)] ?? Infinity;
    const order = new Map(sorted.map((spec, i) => [spec, i]));
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return projects.flatMap((project) =>
      sorted
        .filter((spec) => spec.project.name === project)
        .sort((a, b) => (seconds(a) === seconds(b) ? 0 : seconds(b) - seconds(a)) || order.get(a)! - order.get(b)!),
    );
  }
}
