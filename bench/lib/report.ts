// The bench's output: one row per figure, printed as a table and written as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';

export interface Goal {
  /** `<=`: the ratio must not exceed `value` (a cost); `>=`: it must reach it (a rate). */
  op: '<=' | '>=';
  value: number;
}

export interface BenchRow {
  /** P1 … P8. */
  id: string;
  /** What was measured, e.g. "createItem" or "p99 @ 50 sockets". */
  name: string;
  /** LumiBase's figure and the baseline's, each the median of the repetitions, in `unit`. */
  measured: number;
  baseline: number;
  unit: string;
  /** measured / baseline. */
  ratio: number;
  goal?: Goal;
  /** Whether the ratio meets the goal; absent for rows without one. */
  met?: boolean;
  note?: string;
}

/** A benchmark that could not run (a feature not built yet): reported, never silently left out. */
export interface UnavailableRow {
  id: string;
  name: string;
  unavailable: string;
}

export type Row = BenchRow | UnavailableRow;

export function isUnavailable(row: Row): row is UnavailableRow {
  return 'unavailable' in row;
}

export function row(fields: Omit<BenchRow, 'ratio' | 'met'> & { ratio?: number }): BenchRow {
  const ratio = fields.ratio ?? fields.measured / fields.baseline;
  const met = fields.goal === undefined ? undefined : fields.goal.op === '<=' ? ratio <= fields.goal.value : ratio >= fields.goal.value;
  return { ...fields, ratio, ...(met === undefined ? {} : { met }) };
}

export function machine(): Record<string, unknown> {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function goalText(goal: Goal | undefined): string {
  if (!goal) return '';
  return `${goal.op} ${goal.value === 1 / 3 ? '1/3' : goal.value}×`;
}

export function formatTable(rows: readonly Row[]): string {
  const header = ['P', 'measure', 'LumiBase', 'baseline', 'unit', 'ratio', 'goal', 'met', 'note'];
  const lines = rows.map((entry) =>
    isUnavailable(entry)
      ? [entry.id, entry.name, '—', '—', '', '—', '', 'n/a', entry.unavailable]
      : [
          entry.id,
          entry.name,
          format(entry.measured),
          format(entry.baseline),
          entry.unit,
          `${format(entry.ratio)}×`,
          goalText(entry.goal),
          entry.met === undefined ? '' : entry.met ? 'yes' : 'NO',
          entry.note ?? '',
        ],
  );
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number)))
      .join('  ')
      .trimEnd();
  return [render(header), render(widths.map((width) => '-'.repeat(width))), ...lines.map(render)].join('\n');
}

export function writeJson(path: string, document: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
}
