// TRASH_RETENTION_DAYS as a reader says it: whole days, else hours (a fraction of a day in tests and demos).

export function restorableFor(days: number): string {
  const unit = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  if (Number.isInteger(days)) return unit(days, 'day');
  const hours = days * 24;
  return hours >= 1 ? unit(Math.round(hours), 'hour') : unit(Math.max(1, Math.round(hours * 60)), 'minute');
}
