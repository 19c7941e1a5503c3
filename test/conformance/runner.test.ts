// The conformance runner in process: the extended fixtures can fail when the engine is wrong.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FixtureSchema, runFixture } from '../../src/main/interceptors/conformance/index';

const load = (name: string) => FixtureSchema.parse(JSON.parse(readFileSync(new URL(`../fixtures/conformance-extended/${name}.json`, import.meta.url), 'utf8')));

describe('conformance runner', () => {
  it('passes the cross-server priority fixture and fails it with the localeCompare order', async () => {
    const fixture = load('priority-across-servers');
    expect(await runFixture(fixture)).toBeUndefined();
    const step = fixture.steps[0]!;
    if (step.op !== 'apply' && step.op !== 'chain') throw new Error('expected an apply step');
    step.expect.finalPayloadCanonical = '{"arguments":{"note":"xEBAaZ"},"name":"echo"}';
    expect(await runFixture(fixture)).toMatch(/step 1\/2 apply: finalPayload: expected .*xEBAaZ.* got .*xEBAZa/);
  });

  it('checks trace outcomes and reports unknown behaviours as a setup failure', async () => {
    const fixture = load('sink-recording');
    const step = fixture.steps[0]!;
    if (step.op !== 'apply' && step.op !== 'chain') throw new Error('expected an apply step');
    step.expect.outcomes = { 'broken-sink': 'recorded' };
    expect(await runFixture(fixture)).toContain('outcome of broken-sink: expected recorded got not-recorded');
    fixture.interceptors[0]!.behavior = 'teleport';
    expect(await runFixture(fixture)).toMatch(/setup failed: unknown behavior "teleport"/);
  });
});
