// The README's configuration table, generated from SETTINGS so the two cannot drift apart.
import { SETTINGS } from './config.js';

export function configTable(): string {
  const rows = Object.entries(SETTINGS).map(([name, setting]) => {
    const fallback = 'default' in setting ? `\`${setting.default}\`` : '—';
    const secret = 'secret' in setting && setting.secret ? ' (secret: never logged)' : '';
    return `| \`${name}\` | ${fallback} | ${setting.accepts} | ${setting.description}${secret} |`;
  });
  return ['| Variable | Default | Accepts | What it does |', '|---|---|---|---|', ...rows].join('\n');
}
