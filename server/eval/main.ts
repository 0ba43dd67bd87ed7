// `npm run eval`: every scenario against the echo planner and a scripted model per provider format; prints the table.
import { type EvalPlanner, runEval } from './run-eval.js';
import { failuresOf, figuresOf, reportTable } from './eval-report.js';
import { SCENARIOS } from './scenarios.js';

const planners: EvalPlanner[] = ['echo', 'openai', 'anthropic', 'gemini'];
const rows = [];
let failed = 0;
for (const planner of planners) {
  const runs = await runEval(SCENARIOS, planner);
  rows.push({ planner, figures: figuresOf(runs) });
  // `npm run eval -- --transcript`: each message and the echo planner's reply.
  if (planner === 'echo' && process.argv.includes('--transcript'))
    for (const run of runs) console.log(`> ${run.message}\n  ${run.reply.split('\n').join('\n  ')}`);
  for (const failure of failuresOf(runs)) {
    failed++;
    console.log(`${planner}: ${failure}`);
  }
}
console.log(reportTable(rows));
process.exit(failed === 0 ? 0 : 1);
