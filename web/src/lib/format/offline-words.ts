// What the Copilot says when no language model is connected: that fact, the settings that connect one, and the short
// commands the echo planner (the offline stand-in) understands instead.

/** The server settings that connect a model: LLM_PROVIDER and the key(s) that provider needs. */
export const MODEL_SETTINGS: readonly { provider: string; keys: string }[] = [
  { provider: 'openai', keys: 'OPENAI_API_KEY' },
  { provider: 'anthropic', keys: 'ANTHROPIC_API_KEY' },
  { provider: 'gemini', keys: 'GEMINI_API_KEY' },
  { provider: 'workers-ai', keys: 'CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN' },
];

/** The echo planner's phrases, as an admin would type them (the server's echo-phrases table, in short). */
export const ECHO_UNDERSTANDS: readonly string[] = [
  'list collections',
  'create collection <name>',
  'delete collection <name>',
  'add field <field> to <collection> as <type>',
  'rename field <field> in <collection> to <name>',
  'delete field <field> from <collection>',
  'list items in <collection>',
  'create item in <collection> with {"title": "…"}',
  'search for <words>',
  'suggest field for <collection>: <what it is for>',
  'assist <field> in <collection>: <instruction>',
];
