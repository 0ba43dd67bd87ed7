// What an approval card shows beyond the arguments: the time left (edits: forms/argument-form.ts).

/** "2 days 23 hours left", "14 minutes left", "Expired". */
export function timeLeft(expiresAt: string, now: number = Date.now()): string {
  const ms = Date.parse(expiresAt) - now;
  if (!(ms > 0)) return 'Expired';
  const minutes = Math.ceil(ms / 60_000);
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (minutes < 60) return `${unit(minutes, 'minute')} left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${unit(hours, 'hour')}${minutes % 60 ? ` ${unit(minutes % 60, 'minute')}` : ''} left`;
  const days = Math.floor(hours / 24);
  return `${unit(days, 'day')}${hours % 24 ? ` ${unit(hours % 24, 'hour')}` : ''} left`;
}
