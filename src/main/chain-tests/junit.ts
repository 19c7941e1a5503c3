// A suite run as JUnit XML: one testcase per case, a <failure> with each difference for a failed case,
// an <error> for a case that could not run. What CI systems read to show tests.
import type { SuiteRun } from './suite';
import type { CaseRun } from './run-case';

// Characters XML 1.0 cannot carry at all: dropped from the report.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

function xml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[<>&"']/g, (c) => ENTITIES[c]!);
}

/** The failure's text: each failure, and under it each differing path with both values. */
export function failureText(run: CaseRun): string {
  const lines: string[] = [];
  for (const f of run.failures) {
    lines.push(`${f.what}: ${f.message}`);
    for (const d of f.differences ?? []) {
      if (d.kind === 'missing') lines.push(`  ${d.path}: expected ${JSON.stringify(d.expected)}, missing`);
      else if (d.kind === 'unexpected') lines.push(`  ${d.path}: not expected, got ${JSON.stringify(d.actual)}`);
      else lines.push(`  ${d.path}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}`);
    }
  }
  for (const s of run.steps) lines.push(`step ${s.interceptor} (${s.phase}): ${s.before ?? '(not run)'} -> ${s.after ?? '(not run)'}`);
  for (const s of run.skipped ?? []) lines.push(`skipped ${s.interceptor} (${s.phase}): ${s.reason}${s.detail ? `: ${s.detail}` : ''}`);
  return lines.join('\n');
}

export function toJUnit(suite: SuiteRun): string {
  const total = suite.cases.length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const cases = suite.cases.map((c) => {
    const open = `    <testcase classname="${xml(`chain.${suite.gateway}`)}" name="${xml(c.name)}" file="${xml(c.file)}" time="${seconds(c.durationMs)}"`;
    if (c.status === 'passed') return `${open}/>`;
    if (c.status === 'error') return `${open}>\n      <error message="${xml(c.error ?? 'error')}"/>\n    </testcase>`;
    const message = c.failures.map((f) => `${f.what}: ${f.message}`).join('; ');
    return `${open}>\n      <failure message="${xml(message)}">${xml(failureText(c))}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${total}" failures="${suite.failed}" errors="${suite.errors}" time="${seconds(suite.durationMs)}">`,
    `  <testsuite name="${xml(`chain tests: ${suite.gateway}`)}" tests="${total}" failures="${suite.failed}" errors="${suite.errors}" time="${seconds(suite.durationMs)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
