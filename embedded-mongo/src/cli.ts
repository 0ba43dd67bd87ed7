// `npm run db:embedded -- --port P --dbpath D`: the embedded server as its own process.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { isLoopbackHost } from './loopback-host.js';
import { startEmbeddedServer } from './start-embedded-server.js';

const USAGE = `usage: db:embedded [--host 127.0.0.1] [--port 27017] [--dbpath DIR | --in-memory] [--journal-max-bytes N]
                   [--allow-remote-no-auth]
  DIR defaults to $DATA_DIR/mongo, or .data/mongo when DATA_DIR is unset.
  The server has no authentication: a --host other than a loopback address (127.0.0.0/8, ::1,
  localhost) is refused unless --allow-remote-no-auth says anyone who can reach it may read and write.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '27017' },
      dbpath: { type: 'string' },
      'in-memory': { type: 'boolean', default: false },
      'journal-max-bytes': { type: 'string' },
      'allow-remote-no-auth': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!isLoopbackHost(values.host) && !values['allow-remote-no-auth']) {
    throw new Error(
      `refusing --host ${values.host}: the embedded server has no authentication, so anyone who can reach it could read and ` +
        `write every database. Bind a loopback address, or pass --allow-remote-no-auth to accept that.\n${USAGE}`,
    );
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}\n${USAGE}`);
  const dbPath = values['in-memory'] ? undefined : (values.dbpath ?? join(process.env.DATA_DIR ?? '.data', 'mongo'));
  // Logs go to stderr so stdout carries only the `ready` line scripts wait for.
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
  const server = await startEmbeddedServer({
    host: values.host,
    port,
    dbPath,
    logger,
    journalMaxBytes: values['journal-max-bytes'] ? Number(values['journal-max-bytes']) : undefined,
  });
  process.stdout.write(`ready ${server.uri}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    server.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'unclean stop');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
