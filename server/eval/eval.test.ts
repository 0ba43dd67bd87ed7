// The scenario suite at a small size inside `npm test`: every scenario against the echo planner, and a
// sample against a scripted model in each provider's format (`npm run eval` runs them all and prints the table).
import { describe, expect, it } from 'vitest';
import { failuresOf, figuresOf } from './eval-report.js';
import { runEval } from './run-eval.js';
import { SCENARIOS } from './scenarios.js';

const SAMPLE = SCENARIOS.filter((_, index) => index % 6 === 0);

describe('the Copilot scenario suite', () => {
  it('has at least 40 scenarios, each named once', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(SCENARIOS.map((scenario) => scenario.name)).size).toBe(SCENARIOS.length);
  });

  it('passes every scenario with the echo planner: right calls, exact arguments, one approval per intent, no forbidden call', async () => {
    const runs = await runEval(SCENARIOS, 'echo');
    expect(failuresOf(runs)).toEqual([]);
    expect(figuresOf(runs)).toMatchObject({ precision: 1, recall: 1, exactArguments: 1, approvalsPerIntent: 1, forbiddenCalls: 0 });
  }, 240_000);

  it.each(['openai', 'anthropic', 'gemini'] as const)(
    'passes a sample with a scripted model speaking %s',
    async (dialect) => {
      const runs = await runEval(SAMPLE, dialect);
      expect(failuresOf(runs)).toEqual([]);
      const figures = figuresOf(runs);
      expect(figures.tokens).toBeGreaterThan(0);
      expect(figures.meanSteps).toBeGreaterThanOrEqual(1);
    },
    240_000,
  );
});
