// One Copilot conversation in the current site: the last 50 messages (in memory only: a reload starts empty),
// one message in flight at a time, errors told in the thread, and the conversation continued by its id.
import { CHAT_MESSAGE_MAX, type ChatResponse, type CopilotProgressEvent, type UndoRef } from '@lumibase/shared';
import { type ApiError, describeError, toApiError } from '../api/index.js';
import { restoredTitle, undoneText } from '../format/revision-words.js';

/** The panel keeps at most this many messages, user and assistant alike (property 13). */
export const COPILOT_HISTORY_MAX = 50;

export type CopilotMessage =
  | { id: number; role: 'user'; text: string; at: Date }
  | { id: number; role: 'assistant'; kind: 'reply'; reply: ChatResponse; at: Date }
  | { id: number; role: 'assistant'; kind: 'error'; title: string; text: string; at: Date }
  | { id: number; role: 'assistant'; kind: 'notice'; text: string; at: Date }
  /** The run went on after its approval was settled (copilot-progress `reply`): the model's reply to the outcome. */
  | { id: number; role: 'assistant'; kind: 'continued'; text: string; at: Date };

/** Where one Undo stands: running, done, or refused (the error says why). */
export type UndoStatus = { state: 'running' } | { state: 'done' } | { state: 'failed'; error: ApiError };

/** What the turn in flight has done so far: the model's streamed words, and each skill it called with its status. */
export type CopilotProgressEntry =
  | { step: number; kind: 'text'; text: string }
  | { step: number; kind: 'tool'; skill: string; status: NonNullable<CopilotProgressEvent['status']> | undefined };

/** At most this many progress entries are kept for one turn (the oldest go first). */
export const COPILOT_PROGRESS_MAX = 100;

type NewMessage = CopilotMessage extends infer Message ? (Message extends CopilotMessage ? Omit<Message, 'id' | 'at'> : never) : never;

export interface CopilotStateOptions {
  chat: (request: { message: string; conversationId?: string | undefined }) => Promise<ChatResponse>;
  /** Called with each approval a reply created, so its status can be followed live. */
  onApprovalRequested?: (approvalId: string) => void;
  /** Restores the revision an outcome's `undo` names (POST …/revisions/:revision/restore). */
  restore?: (ref: UndoRef) => Promise<unknown>;
}

export class CopilotState {
  messages = $state.raw<CopilotMessage[]>([]);
  sending = $state(false);
  conversationId = $state<string | undefined>(undefined);
  /** The turn in flight, as its copilot-progress events tell it; emptied when the reply (or an error) arrives. */
  progress = $state.raw<CopilotProgressEntry[]>([]);
  /** Each Undo asked for, by the key of the outcome it undoes (`<message id>:<index>`, or `approval:<id>`). */
  undos = $state.raw<Record<string, UndoStatus>>({});

  readonly #options: CopilotStateOptions;
  #nextId = 1;
  /** The conversation the turn in flight belongs to: known from the start, or taken from its first event. */
  #turnConversation: string | undefined;

  constructor(options: CopilotStateOptions) {
    this.#options = options;
  }

  /** Sends one message; false when there is nothing to send or a message is already in flight. */
  async send(text: string): Promise<boolean> {
    if (this.sending || text.trim() === '') return false;
    this.#push({ role: 'user', text });
    this.sending = true;
    this.progress = [];
    this.#turnConversation = this.conversationId;
    try {
      const reply = await this.#options.chat({ message: text, conversationId: this.conversationId });
      this.conversationId = reply.conversationId;
      this.#push({ role: 'assistant', kind: 'reply', reply });
      for (const outcome of reply.results.length > 0 ? reply.results : [reply]) {
        if (outcome.status === 'pending_approval') this.#options.onApprovalRequested?.(outcome.approvalId);
      }
    } catch (error) {
      this.#push({ role: 'assistant', kind: 'error', ...explain(toApiError(error)) });
    } finally {
      this.sending = false;
      this.progress = [];
      this.#turnConversation = undefined;
    }
    return true;
  }

  /**
   * One copilot-progress event: kept while a message is in flight and the event is of its conversation (a new
   * conversation's id is taken from its first event). Text pieces of a step join into one entry; a tool result
   * gives its status to the call it answers.
   */
  receiveProgress(event: CopilotProgressEvent): void {
    // A run that continues after its approval was settled: its reply joins the thread of its conversation, live.
    if (event.kind === 'reply') {
      if (event.text && event.conversationId === this.conversationId)
        this.#push({ role: 'assistant', kind: 'continued', text: event.text });
      return;
    }
    if (!this.sending) return;
    const step = event.step ?? 1;
    this.#turnConversation ??= event.conversationId;
    if (event.conversationId !== this.#turnConversation) return;
    const entries = [...this.progress];
    const last = entries.at(-1);
    if (event.kind === 'text') {
      if (!event.text) return;
      if (last?.kind === 'text' && last.step === step) entries[entries.length - 1] = { ...last, text: last.text + event.text };
      else entries.push({ step: step, kind: 'text', text: event.text });
    } else if (event.skill) {
      const status = event.kind === 'tool-result' ? event.status : undefined;
      const open = event.kind === 'tool-result' ? entries.findIndex((entry) => isOpenCall(entry, step, event.skill!)) : -1;
      if (open >= 0) entries[open] = { step: step, kind: 'tool', skill: event.skill, status };
      else entries.push({ step: step, kind: 'tool', skill: event.skill, status });
    } else {
      return;
    }
    this.progress = entries.slice(-COPILOT_PROGRESS_MAX);
  }

  /** Whether this thread can undo at all (a restore is wired in). */
  get canUndo(): boolean {
    return this.#options.restore !== undefined;
  }

  /**
   * Undoes one outcome's change by restoring the revision its `undo` names; the thread then says so. Once done (or
   * while running) the same key is not undone again; a refusal can be retried.
   */
  async undo(key: string, ref: UndoRef): Promise<boolean> {
    const restore = this.#options.restore;
    const current = this.undos[key];
    if (!restore || current?.state === 'running' || current?.state === 'done') return false;
    this.undos = { ...this.undos, [key]: { state: 'running' } };
    try {
      const restored = await restore(ref);
      this.undos = { ...this.undos, [key]: { state: 'done' } };
      this.#push({ role: 'assistant', kind: 'notice', text: undoneText(ref, restoredTitle(restored)) });
      return true;
    } catch (error) {
      this.undos = { ...this.undos, [key]: { state: 'failed', error: toApiError(error) } };
      return false;
    }
  }

  /** Starts a new conversation: an empty thread, and the next message opens a new conversation id. */
  clear(): void {
    if (this.sending) return;
    this.messages = [];
    this.conversationId = undefined;
    this.undos = {};
  }

  #push(message: NewMessage): void {
    const next = { ...message, id: this.#nextId++, at: new Date() } as CopilotMessage;
    this.messages = [...this.messages.slice(-(COPILOT_HISTORY_MAX - 1)), next];
  }
}

function isOpenCall(entry: CopilotProgressEntry, step: number, skill: string): boolean {
  return entry.kind === 'tool' && entry.step === step && entry.skill === skill && entry.status === undefined;
}

/** What the thread says when a message could not be answered. */
function explain(error: ApiError): { title: string; text: string } {
  switch (error.code) {
    case 'VALIDATION_FAILED':
      return {
        title: 'The Copilot could not take that message',
        text: error.details.some((detail) => detail.path === 'message')
          ? `A message must have 1 to ${CHAT_MESSAGE_MAX} characters (spaces at either end do not count).`
          : error.details.map((detail) => `${detail.path ? `${detail.path}: ` : ''}${detail.message}`).join(' ') || error.message,
      };
    case 'RATE_LIMITED':
      return {
        title: 'Too many messages',
        text: 'You are sending messages faster than the Copilot allows. Wait a minute, then try again.',
      };
    case 'NETWORK':
      return { title: 'Not sent', text: "Can't reach the server, so your message was not sent. Check your connection and try again." };
    default:
      return { title: 'Something went wrong', text: describeError(error) };
  }
}
