// The suite's figures for one planner: tool-selection precision and recall, exact argument matches,
// approvals per intent, model steps and tokens, and the scenarios that failed.
import { isDeepStrictEqual } from 'node:util';
import type { ScenarioRun } from './run-eval.js';

export interface EvalFigures {
  scenarios: number;
  passed: number;
  precision: number;
  recall: number;
  exactArguments: number;
  approvalsPerIntent: number;
  forbiddenCalls: number;
  meanSteps: number;
  tokens: number;
}

const ratio = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);

export function figuresOf(runs: readonly ScenarioRun[]): EvalFigures {
  let made = 0;
  let expected = 0;
  let matched = 0;
  let withArguments = 0;
  let exact = 0;
  const approvals = new Map<string, number>();
  for (const run of runs) {
    made += run.made.length;
    expected += run.expected.length;
    const left = [...run.made];
    for (const call of run.expected) {
      const index = left.findIndex((candidate) => candidate.name === call.name);
      if (index < 0) continue;
      matched++;
      const [hit] = left.splice(index, 1);
      if (call.arguments) {
        withArguments++;
        if (isDeepStrictEqual(hit!.arguments, call.arguments)) exact++;
      }
    }
    const asked = new Set(run.made.filter((call) => call.status === 'pending_approval')).size;
    if (run.scenario.statuses?.includes('pending_approval'))
      approvals.set(run.scenario.name, (approvals.get(run.scenario.name) ?? 0) + asked);
  }
  const approvalCounts = [...approvals.values()];
  return {
    scenarios: runs.length,
    passed: runs.filter((run) => run.failures.length === 0).length,
    precision: ratio(matched, made),
    recall: ratio(matched, expected),
    exactArguments: ratio(exact, withArguments),
    approvalsPerIntent: ratio(
      approvalCounts.reduce((sum, count) => sum + count, 0),
      approvalCounts.length,
    ),
    forbiddenCalls: runs.reduce((sum, run) => sum + run.made.filter((call) => run.scenario.forbidden?.includes(call.name)).length, 0),
    meanSteps: runs.reduce((sum, run) => sum + run.steps, 0) / Math.max(1, runs.length),
    tokens: runs.reduce((sum, run) => sum + run.tokens, 0),
  };
}

export function reportTable(rows: readonly { planner: string; figures: EvalFigures }[]): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  const lines = [
    '| planner | scenarios passed | precision | recall | exact arguments | approvals per intent | forbidden calls | mean steps | tokens |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { planner, figures: f } of rows)
    lines.push(
      `| ${planner} | ${f.passed}/${f.scenarios} | ${percent(f.precision)} | ${percent(f.recall)} | ${percent(f.exactArguments)} | ${f.approvalsPerIntent.toFixed(2)} | ${f.forbiddenCalls} | ${f.meanSteps.toFixed(2)} | ${f.tokens} |`,
    );
  return lines.join('\n');
}

export function failuresOf(runs: readonly ScenarioRun[]): string[] {
  return runs.filter((run) => run.failures.length > 0).map((run) => `${run.scenario.name}: ${run.failures.join('; ')}`);
}
