// The property both hand-written shortcuts past zod are held to (result-fast-check, invoke-fast-check): where
// the shortcut says yes, the schema accepts and gives back an equal value; it may say no to valid values.
import { expect } from 'vitest';
import type { z } from 'zod';

/** Checks every variant; returns how often the shortcut said yes and no (both branches must be exercised). */
export function expectShortcutNeverLooser(shortcut: (v: unknown) => boolean, schema: z.ZodType, variants: unknown[]): { yes: number; no: number } {
  let yes = 0;
  let no = 0;
  for (const v of variants) {
    const zod = schema.safeParse(v);
    if (shortcut(v)) {
      yes++;
      expect(zod.success, JSON.stringify(v)).toBe(true);
      expect(zod.data).toEqual(v);
    } else {
      no++;
    }
  }
  return { yes, no };
}
