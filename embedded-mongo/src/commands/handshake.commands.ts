// Connection-level commands: the hello handshake, ping, and the server facts drivers ask for.
import type { Document } from 'bson';
import { CommandError } from '../engine/command-error.js';
import { type CommandContext, type CommandHandler, WIRE_LIMITS } from './command-context.js';

// Wire version 21 is MongoDB 7.0, whose behaviour (e.g. drop of a missing collection) we follow.
const MAX_WIRE_VERSION = 21;
const VERSION = '7.0.0';

function hello(legacyName: boolean): CommandHandler {
  return (_command: Document, context: CommandContext) => ({
    // Both names: the driver reads isWritablePrimary, older tools read ismaster.
    helloOk: true,
    isWritablePrimary: true,
    ...(legacyName ? { ismaster: true } : {}),
    ...WIRE_LIMITS,
    localTime: new Date(),
    // Without this the driver disables sessions (and the lsid it sends with every command).
    logicalSessionTimeoutMinutes: 30,
    connectionId: context.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  });
}

const buildInfo: CommandHandler = () => ({
  version: VERSION,
  gitVersion: 'lumibase-embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: WIRE_LIMITS.maxBsonObjectSize,
  storageEngines: ['lumibase-embedded'],
  ok: 1,
});

const PARAMETERS: Document = {
  featureCompatibilityVersion: { version: '7.0' },
  authenticationMechanisms: [],
  requireApiVersion: false,
};

const getParameter: CommandHandler = (command) => {
  if (command.getParameter === '*') return { ...PARAMETERS, ok: 1 };
  const reply: Document = {};
  for (const name of Object.keys(command)) if (Object.hasOwn(PARAMETERS, name)) reply[name] = PARAMETERS[name];
  if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
  return { ...reply, ok: 1 };
};

const serverStatus: CommandHandler = (_command, context) => ({
  host: 'localhost',
  version: VERSION,
  process: 'mongod',
  pid: process.pid,
  uptime: Math.floor((Date.now() - context.server.startedAt.getTime()) / 1000),
  localTime: new Date(),
  connections: context.server.connections(),
  // mongod reports its CPU time here too; the benchmark divides it by the commands served.
  extra_info: { note: 'fields vary by platform', user_time_us: process.cpuUsage().user, system_time_us: process.cpuUsage().system },
  embedded: context.server.embeddedStats(),
  ok: 1,
});

const ok: CommandHandler = () => ({ ok: 1 });

export const handshakeCommands: Record<string, CommandHandler> = {
  hello: hello(false),
  isMaster: hello(true),
  ismaster: hello(true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  serverStatus,
  endSessions: ok,
  killSessions: ok,
  refreshSessions: ok,
  whatsmyuri: () => ({ you: '127.0.0.1', ok: 1 }),
  getCmdLineOpts: () => ({ argv: ['mongod'], parsed: {}, ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  hostInfo: () => ({ system: { hostname: 'localhost' }, os: { type: process.platform }, ok: 1 }),
};
