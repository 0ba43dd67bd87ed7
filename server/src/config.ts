// Every setting LumiBase reads from the environment, parsed once with zod.
import { z } from 'zod';
import { DEFAULT_APPROVAL_TTL_SECONDS } from '@lumibase/shared';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

/** LOG_FORMAT: forced log line formats (logger.ts). */
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The language-model providers LLM_PROVIDER names (llm/create-planner.ts says what each needs). */
export const LLM_PROVIDERS = ['echo', 'openai', 'anthropic', 'gemini', 'workers-ai'] as const;

/** The embedders EMBEDDINGS_PROVIDER names (retrieval/embeddings/create-embedder.ts says what each needs). */
export const EMBEDDINGS_PROVIDERS = ['local', 'openai', 'gemini', 'workers-ai'] as const;

/** VECTOR_SEARCH: exact cosine over the site's vectors, or MongoDB's $vectorSearch (8.2+ or Atlas). */
export const VECTOR_SEARCH_MODES = ['exact', 'mongodb'] as const;

interface Setting {
  schema: z.ZodType;
  /** What the variable accepts, in words: printed when a value is refused. */
  accepts: string;
  description: string;
  default?: string;
  secret?: boolean;
}

/** The single source for parsing, the README's configuration table and docker-compose's checks. */
export const SETTINGS = {
  PORT: {
    schema: port.default(3000),
    accepts: 'an integer from 0 to 65535',
    default: '3000',
    description: 'HTTP port of the API, the socket and the Studio',
  },
  HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    accepts: 'a host name or address',
    default: '127.0.0.1',
    description: 'Address to listen on (0.0.0.0 in containers)',
  },
  MONGODB_URI: {
    schema: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//)
      .optional(),
    accepts: 'a mongodb:// or mongodb+srv:// URI',
    description: 'MongoDB to use; unset starts the embedded wire-compatible server under DATA_DIR/mongo',
    secret: true,
  },
  MONGODB_DB: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/)
      .default('lumibase'),
    accepts: 'a database name (letters, digits, _ and -)',
    default: 'lumibase',
    description: 'Database name',
  },
  MONGODB_SERVER_SELECTION_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(500).max(30_000).default(5000),
    accepts: 'milliseconds from 500 to 30000',
    default: '5000',
    description: 'How long a MongoDB command waits for a reachable server before the request answers 503',
  },
  REDIS_URL: {
    schema: z
      .string()
      .regex(/^rediss?:\/\//)
      .optional(),
    accepts: 'a redis:// or rediss:// URL',
    description: 'Redis to use; unset uses 127.0.0.1:6379 if it answers, else spawns redis-server',
    secret: true,
  },
  DATA_DIR: {
    schema: z.string().min(1).default('.data'),
    accepts: 'a directory path',
    default: '.data',
    description: 'Where embedded MongoDB and Redis keep their data',
  },
  QUEUE_PREFIX: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/)
      .default('lumibase'),
    accepts: 'letters, digits, _ and - (1 to 40)',
    default: 'lumibase',
    description: 'Prefix of BullMQ keys in Redis',
  },
  LLM_PROVIDER: {
    schema: z.enum(LLM_PROVIDERS).default('echo'),
    accepts: `one of ${LLM_PROVIDERS.join(', ')}`,
    default: 'echo',
    description: 'Language model behind the Copilot (echo when its credentials are missing)',
  },
  LLM_MODEL: {
    schema: z.string().min(1).optional(),
    accepts: 'a model name',
    description: "The provider's model (default gpt-4o-mini, claude-sonnet-5-5, gemini-2.5-flash, @cf/meta/llama-3.1-8b-instruct)",
  },
  OPENAI_API_KEY: {
    schema: z.string().min(1).optional(),
    accepts: 'an API key',
    description: 'OpenAI key (chat and embeddings)',
    secret: true,
  },
  ANTHROPIC_API_KEY: { schema: z.string().min(1).optional(), accepts: 'an API key', description: 'Anthropic key', secret: true },
  GEMINI_API_KEY: { schema: z.string().min(1).optional(), accepts: 'an API key', description: 'Google Gemini key', secret: true },
  CLOUDFLARE_ACCOUNT_ID: {
    schema: z.string().min(1).optional(),
    accepts: 'an account id',
    description: 'Cloudflare account for Workers AI',
  },
  CLOUDFLARE_API_TOKEN: {
    schema: z.string().min(1).optional(),
    accepts: 'an API token',
    description: 'Cloudflare token for Workers AI',
    secret: true,
  },
  OPENAI_BASE_URL: {
    schema: z.url().optional(),
    accepts: 'an http(s) URL',
    description: 'OpenAI-compatible API base (default https://api.openai.com/v1)',
  },
  ANTHROPIC_BASE_URL: {
    schema: z.url().optional(),
    accepts: 'an http(s) URL',
    description: 'Anthropic API base (default https://api.anthropic.com)',
  },
  GEMINI_BASE_URL: {
    schema: z.url().optional(),
    accepts: 'an http(s) URL',
    description: 'Gemini API base (default https://generativelanguage.googleapis.com)',
  },
  WORKERS_AI_BASE_URL: {
    schema: z.url().optional(),
    accepts: 'an http(s) URL',
    description: 'Cloudflare API base for Workers AI (default https://api.cloudflare.com/client/v4)',
  },
  EMBEDDINGS_PROVIDER: {
    schema: z.enum(EMBEDDINGS_PROVIDERS).default('local'),
    accepts: `one of ${EMBEDDINGS_PROVIDERS.join(', ')}`,
    default: 'local',
    description: 'Embedder behind search and the RAG skills (local: offline feature hashing; local when credentials are missing)',
  },
  EMBEDDINGS_MODEL: {
    schema: z.string().min(1).optional(),
    accepts: 'a model name',
    description:
      "The embedder's model (default local-hash-v1, text-embedding-3-small, gemini-embedding-001, @cf/baai/bge-base-en-v1.5); changing it re-embeds each site",
  },
  EMBEDDINGS_RATE_LIMIT_PER_MINUTE: {
    schema: z.coerce.number().int().min(0).max(1_000_000).default(0),
    accepts: 'an integer from 0 to 1000000',
    default: '0',
    description: "Embeddings jobs per minute at most across a worker (a provider's rate limit); 0: unlimited",
  },
  EMBEDDINGS_DEBOUNCE_MS: {
    schema: z.coerce.number().int().min(0).max(60_000).default(250),
    accepts: 'milliseconds from 0 to 60000',
    default: '250',
    description: 'How long an embeddings job waits before it runs, so quick successive changes of an item share one embedding',
  },
  VECTOR_SEARCH: {
    schema: z.enum(VECTOR_SEARCH_MODES).default('exact'),
    accepts: `one of ${VECTOR_SEARCH_MODES.join(', ')}`,
    default: 'exact',
    description:
      "Search: exact cosine over the site's vectors, or MongoDB's $vectorSearch (MongoDB 8.2+ or Atlas, with the README's index)",
  },
  LLM_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    accepts: 'milliseconds from 1000 to 600000',
    default: '30000',
    description: 'How long one model call may take',
  },
  LLM_MAX_STEPS: {
    schema: z.coerce.number().int().min(1).max(20).default(5),
    accepts: 'an integer from 1 to 20',
    default: '5',
    description: 'Model calls in one Copilot turn at most',
  },
  LUMIBASE_ADMIN_EMAIL: {
    schema: z.email().default('admin@lumibase.local'),
    accepts: 'an email address',
    default: 'admin@lumibase.local',
    description: 'Bootstrap superadmin, created only when no user exists',
  },
  LUMIBASE_ADMIN_PASSWORD: {
    schema: z.string().min(8).optional(),
    accepts: 'a password of at least 8 characters',
    description: 'Bootstrap password; unset generates one and prints it once',
    secret: true,
  },
  LUMIBASE_DEMO: {
    schema: booleanFlag.default(true),
    accepts: 'true or false',
    default: 'true',
    description: 'Create a demo site on an empty database (all-in-one mode)',
  },
  STUDIO_ORIGIN: {
    schema: z.url().optional(),
    accepts: 'an origin such as https://studio.example.com',
    description:
      "The Studio's origin when hosted elsewhere: the one origin allowed cross-origin (CORS, with credentials) and for cookie-authenticated writes",
  },
  PUBLIC_URL: {
    schema: z.url().optional(),
    accepts: 'a URL such as https://cms.example.com',
    description:
      'Where people open the Studio, for links in webhook messages (unset: STUDIO_ORIGIN, else http://localhost:PORT); when https, the session cookie is Secure and named __Host-lumibase_session',
  },
  WEBHOOK_ALLOW_PRIVATE: {
    schema: booleanFlag.default(false),
    accepts: 'true or false',
    default: 'false',
    description: 'Let webhooks target loopback and private addresses (refused by default: SSRF protection)',
  },
  SESSION_TTL_HOURS: {
    schema: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(168),
    accepts: 'hours from 1 to 2160',
    default: '168',
    description: 'How long a sign-in lasts',
  },
  DECIDE_WAIT_MS: {
    schema: z.coerce.number().int().min(0).max(60_000).default(5000),
    accepts: 'milliseconds from 0 to 60000',
    default: '5000',
    description: 'How long decide waits for the worker before answering 202',
  },
  CHAT_RATE_LIMIT_PER_MINUTE: {
    schema: z.coerce.number().int().min(1).max(10_000).default(60),
    accepts: 'an integer from 1 to 10000',
    default: '60',
    description: 'Copilot model and embedding calls per user per minute (chat, skills, search, MCP, a run’s continuation)',
  },
  EVENT_RETENTION_DAYS: {
    schema: z.coerce.number().int().min(1).max(365).default(7),
    accepts: 'days from 1 to 365',
    default: '7',
    description: 'How long site events are kept for replay',
  },
  IDEMPOTENCY_RETENTION_SECONDS: {
    schema: z.coerce.number().int().min(1).max(2_592_000).default(86_400),
    accepts: 'seconds from 1 to 2592000',
    default: '86400',
    description: 'How long an Idempotency-Key and the first response stored with it are kept (24 hours)',
  },
  IDEMPOTENCY_LEASE_SECONDS: {
    schema: z.coerce.number().int().min(1).max(3600).default(60),
    accepts: 'seconds from 1 to 3600',
    default: '60',
    description: 'A request holding an Idempotency-Key this long without an answer is taken as crashed: a retry may take it over',
  },
  IDEMPOTENCY_KEY: {
    schema: z.string().min(32).optional(),
    accepts: 'a secret of at least 32 characters',
    description:
      'Server key of the Idempotency-Key fingerprints (HMAC-SHA-256 of method, URL and body); unset: one is generated once per deployment and kept in MongoDB',
    secret: true,
  },
  REPLAY_MAX_EVENTS: {
    schema: z.coerce.number().int().min(1).max(100_000).default(1000),
    accepts: 'an integer from 1 to 100000',
    default: '1000',
    description: 'Most events replayed to a reconnecting socket; one further behind is asked to resync',
  },
  WORKER_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(64).default(4),
    accepts: 'an integer from 1 to 64',
    default: '4',
    description: 'Jobs one worker process runs at once',
  },
  JOB_LOCK_MS: {
    schema: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    accepts: 'milliseconds from 1000 to 600000',
    default: '30000',
    description: 'How long a worker holds a job before another may take it over (after a crash)',
  },
  RECONCILE_INTERVAL_MS: {
    schema: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
    accepts: 'milliseconds from 1000 to 3600000',
    default: '30000',
    description: 'How often workers relay leftover events and requeue stuck approvals',
  },
  APPROVAL_TTL_SECONDS: {
    schema: z.coerce
      .number()
      .int()
      .min(1)
      .max(90 * 24 * 3600)
      .default(DEFAULT_APPROVAL_TTL_SECONDS),
    accepts: 'seconds from 1 to 7776000',
    default: String(DEFAULT_APPROVAL_TTL_SECONDS),
    description: 'How long a pending approval waits for a decision before it expires (72 hours)',
  },
  APPROVAL_EXPIRY_SWEEP_MS: {
    schema: z.coerce.number().int().min(100).max(15_000).default(5000),
    accepts: 'milliseconds from 100 to 15000',
    default: '5000',
    description: 'How often workers look for pending approvals past their expiry',
  },
  TRASH_RETENTION_DAYS: {
    schema: z.coerce.number().positive().max(3650).default(30),
    accepts: 'days above 0 up to 3650 (fractions allowed)',
    default: '30',
    description: 'How long deleted collections and fields stay in the trash, restorable, before they are purged',
  },
  REVISION_RETENTION_DAYS: {
    schema: z.coerce.number().min(0).max(36500).default(365),
    accepts: 'days from 0 up to 36500 (fractions allowed); 0 keeps revisions forever',
    default: '365',
    description: "How long item revisions are kept; older ones are deleted by the trash purge, except each live item's newest",
  },
  TRASH_PURGE_INTERVAL_MS: {
    schema: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    accepts: 'milliseconds from 100 to 3600000',
    default: '60000',
    description: 'How often workers purge trash past its retention (and finish deletions a crash interrupted)',
  },
  LOG_FORMAT: {
    schema: z.enum(LOG_FORMATS).optional(),
    accepts: 'pretty or json',
    description: 'Log lines: unset prints one coloured line per event on a terminal and JSON otherwise; set to force one',
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    accepts: 'one of fatal, error, warn, info, debug, trace, silent',
    default: 'info',
    description: 'Log level',
  },
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;
export type Config = { [K in SettingName]: z.output<(typeof SETTINGS)[K]['schema']> };

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError whose message is one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(SETTINGS) as [SettingName, Setting][]) {
    const raw = env[name];
    const result = setting.schema.safeParse(raw === '' ? undefined : raw);
    if (!result.success) {
      const shown = setting.secret ? '' : ` (got ${JSON.stringify(raw)})`;
      throw new ConfigError(name, `Invalid configuration: ${name} must be ${setting.accepts}${shown}`);
    }
    config[name] = result.data;
  }
  return config as Config;
}

/** The configuration as it may be logged: secrets are reduced to whether they are set. */
export function describeConfig(config: Config): Record<string, unknown> {
  const described: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(SETTINGS) as [SettingName, Setting][]) {
    const value = config[name];
    described[name] = setting.secret ? (value === undefined ? 'unset' : 'set') : value;
  }
  return described;
}

/** The Studio's base URL for links sent outside (webhook messages). */
export function studioUrl(config: Pick<Config, 'PUBLIC_URL' | 'STUDIO_ORIGIN' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? config.STUDIO_ORIGIN ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
