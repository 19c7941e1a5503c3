// One time formatter in the renderer ([desktop-client] item 5.3): times were "2:03:04 PM" on some screens
// (toLocaleTimeString) and "14:03:04.120" on others. The rule is 24-hour local time whatever the locale,
// written by src/renderer/src/time-format.ts, and no renderer file formats a time of day by itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockTime, timeOfDay } from '../../src/renderer/src/time-format';

const rendererSrc = join(import.meta.dirname, '../../src/renderer/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('the renderer writes times one way', () => {
  it('24-hour local time; the date in front when it is not today', () => {
    const afternoon = new Date();
    afternoon.setHours(14, 3, 4, 120);
    expect(timeOfDay(afternoon)).toBe('14:03:04');
    expect(clockTime(afternoon.toISOString())).toBe('14:03:04.120');
    const older = new Date(2024, 0, 5, 9, 7, 8, 5);
    expect(timeOfDay(older.getTime())).toBe('2024-01-05 09:07:08');
    expect(clockTime(older.toISOString())).toBe('2024-01-05 09:07:08.005');
    expect(timeOfDay('not a time')).toBe('not a time');
  });

  it('no renderer file formats a time with the locale (toLocaleTimeString, toLocaleDateString, Intl.DateTimeFormat)', () => {
    const offenders = sources(rendererSrc)
      .filter((f) => !f.endsWith('time-format.ts'))
      .filter((f) => /toLocaleTimeString|toLocaleDateString|Intl\.DateTimeFormat|new Date\([^)]*\)\.toLocaleString/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(rendererSrc, f));
    expect(offenders).toEqual([]);
  });
});
