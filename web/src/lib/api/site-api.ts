// Site-scoped routes (X-Site-Id fixed at creation, so a reply can never land in another site's view).
import {
  type ApprovalDecision,
  type ApprovalJson,
  ApprovalResponse,
  type CopilotPolicy,
  type CopilotNotice,
  NoticeListResponse,
  PolicyResponse,
  type PutPolicyRequest,
  type ApprovalStatus,
  ChatResponse,
  CollectionResponse,
  CollectionView,
  type Field,
  FieldResponse,
  type FieldChanges,
  type GrantedCapability,
  ItemListResponse,
  ItemResponse,
  ItemRevisionListResponse,
  type ItemRevisionView,
  AuditVerificationResponse,
  type AuditVerification,
  ListAuditResponse,
  type UndoRef,
  ItemView,
  AddMemberResponse,
  type AddMemberRequest,
  ListApprovalsResponse,
  MemberListResponse,
  MemberResponse,
  type MemberView,
  type Role,
  UserListResponse,
  type UserView,
  CreatedWebhookResponse,
  type SiteEventName,
  type WebhookDeliveryView,
  WebhookDeliveryResponse,
  type WebhookFormat,
  WebhookListResponse,
  type WebhookView,
  type TrashEntryView,
  TrashListResponse,
  type TrashRestoreResult,
  TrashRestoreResponse,
} from '@lumibase/shared';
import { z } from 'zod';
import type { Page } from './admin-api.js';
import { createAiSkillsApi } from './ai-skills-api.js';
import { type HttpClient, segment } from './http-client.js';

// docs/API.md: GET /collections answers `{ data }`, with no list meta.
const CollectionsResponse = z.object({ data: z.array(CollectionView) });
const ChatReply = z.object({ data: ChatResponse });
// A restore answers the item with the revision the restore made.
const RestoredItemResponse = z.object({ data: ItemView.extend({ revision: z.number().int().min(1) }) });

export type ItemData = Record<string, unknown>;

/** What an approver's edit changes (PATCH /ai/approvals/:id): a one-step approval's arguments, or a plan's steps (null removes one). */
export type ApprovalEdit = { arguments: Record<string, unknown> } | { steps: StepEdit[] };
/** One step's edit in a plan's PATCH: its arguments, or null to remove it. */
export type StepEdit = { arguments: Record<string, unknown> } | null;

export function createSiteApi(http: HttpClient, siteId: string) {
  const site = { siteId };
  return {
    siteId,
    collections: {
      async list(): Promise<CollectionView[]> {
        return (await http.request('/collections', { ...site, schema: CollectionsResponse })).data;
      },
      async get(name: string): Promise<CollectionView> {
        return (await http.request(`/collections/${segment(name)}`, { ...site, schema: CollectionResponse })).data;
      },
      async create(collection: { name: string; label?: string }): Promise<CollectionView> {
        return (await http.request('/collections', { ...site, method: 'POST', body: collection, schema: CollectionResponse })).data;
      },
      async remove(name: string): Promise<void> {
        await http.request(`/collections/${segment(name)}`, { ...site, method: 'DELETE' });
      },
      async addField(collection: string, field: Field): Promise<Field> {
        const path = `/collections/${segment(collection)}/fields`;
        return (await http.request(path, { ...site, method: 'POST', body: field, schema: FieldResponse })).data;
      },
      async updateField(collection: string, field: string, changes: FieldChanges): Promise<Field> {
        const path = `/collections/${segment(collection)}/fields/${segment(field)}`;
        return (await http.request(path, { ...site, method: 'PATCH', body: changes, schema: FieldResponse })).data;
      },
      async removeField(collection: string, field: string): Promise<void> {
        await http.request(`/collections/${segment(collection)}/fields/${segment(field)}`, { ...site, method: 'DELETE' });
      },
    },
    items: {
      async list(collection: string, { limit, offset }: { limit: number; offset: number }): Promise<Page<ItemView>> {
        return http.request(`/items/${segment(collection)}`, { ...site, query: { limit, offset }, schema: ItemListResponse });
      },
      async get(collection: string, id: string): Promise<ItemView> {
        return (await http.request(`/items/${segment(collection)}/${segment(id)}`, { ...site, schema: ItemResponse })).data;
      },
      async create(collection: string, data: ItemData): Promise<ItemView> {
        const path = `/items/${segment(collection)}`;
        return (await http.request(path, { ...site, method: 'POST', body: { data }, schema: ItemResponse })).data;
      },
      async update(collection: string, id: string, data: ItemData): Promise<ItemView> {
        const path = `/items/${segment(collection)}/${segment(id)}`;
        return (await http.request(path, { ...site, method: 'PATCH', body: { data }, schema: ItemResponse })).data;
      },
      async remove(collection: string, id: string): Promise<void> {
        await http.request(`/items/${segment(collection)}/${segment(id)}`, { ...site, method: 'DELETE' });
      },
      /** The item's revisions, newest first (also for a deleted item). */
      async revisions(collection: string, id: string): Promise<ItemRevisionView[]> {
        const path = `/items/${segment(collection)}/${segment(id)}/revisions`;
        return (await http.request(path, { ...site, schema: ItemRevisionListResponse })).data;
      },
      /** Makes a revision's data the item's again (re-created under its id if deleted); 409 when it no longer fits the fields. */
      async restore({ collection, id, revision }: UndoRef): Promise<ItemView & { revision: number }> {
        const path = `/items/${segment(collection)}/${segment(id)}/revisions/${revision}/restore`;
        return (await http.request(path, { ...site, method: 'POST', schema: RestoredItemResponse })).data;
      },
    },
    trash: {
      /** Newest first; the trash holds what was deleted within TRASH_RETENTION_DAYS. */
      async list(): Promise<TrashEntryView[]> {
        return (await http.request('/trash', { ...site, query: { limit: 100 }, schema: TrashListResponse })).data;
      },
      /** TRASH_RETENTION_DAYS: how long what is deleted now can be restored. */
      async retentionDays(): Promise<number> {
        return (await http.request('/trash', { ...site, query: { limit: 1 }, schema: TrashListResponse })).meta.retentionDays;
      },
      /** 409 when the name was taken again meanwhile (a collection, a field) or the item's collection is in the trash. */
      async restore(id: string): Promise<TrashRestoreResult> {
        return (await http.request(`/trash/${segment(id)}/restore`, { ...site, method: 'POST', schema: TrashRestoreResponse })).data;
      },
    },
    webhooks: {
      async list(): Promise<WebhookView[]> {
        return (await http.request('/webhooks', { ...site, schema: WebhookListResponse })).data;
      },
      /** The answer is the only place the secret is ever shown. */
      async create(webhook: { url: string; events: SiteEventName[]; format: WebhookFormat }) {
        return (await http.request('/webhooks', { ...site, method: 'POST', body: webhook, schema: CreatedWebhookResponse })).data;
      },
      async remove(id: string): Promise<void> {
        await http.request(`/webhooks/${segment(id)}`, { ...site, method: 'DELETE' });
      },
      async sendTest(id: string): Promise<WebhookDeliveryView> {
        return (await http.request(`/webhooks/${segment(id)}/test`, { ...site, method: 'POST', schema: WebhookDeliveryResponse })).data;
      },
    },
    members: {
      async list(): Promise<MemberView[]> {
        return (await http.request('/members', { ...site, query: { limit: 100 }, schema: MemberListResponse })).data;
      },
      /** Adds by email; an unknown email gets an account, whose generated password is answered this once. */
      async add(input: AddMemberRequest): Promise<AddMemberResponse['data']> {
        return (await http.request('/members', { ...site, method: 'POST', body: input, schema: AddMemberResponse })).data;
      },
      async put(userId: string, membership: { role: Role; capabilities: GrantedCapability[] }): Promise<MemberView> {
        return (await http.request(`/members/${segment(userId)}`, { ...site, method: 'PUT', body: membership, schema: MemberResponse }))
          .data;
      },
      async remove(userId: string): Promise<void> {
        await http.request(`/members/${segment(userId)}`, { ...site, method: 'DELETE' });
      },
    },
    ai: {
      ...createAiSkillsApi(http, siteId),
      /** One Copilot turn; `conversationId` continues a conversation. */
      async chat(request: { message: string; conversationId?: string | undefined }): Promise<ChatResponse> {
        const body = request.conversationId ? request : { message: request.message };
        return (await http.request('/ai/chat', { ...site, method: 'POST', body, schema: ChatReply })).data;
      },
      audit: {
        /** The site's audit entries, newest first. */
        async list({ limit, offset }: { limit: number; offset: number }): Promise<ListAuditResponse> {
          return http.request('/ai/audit', { ...site, query: { limit, offset }, schema: ListAuditResponse });
        },
        /** Walks the site's hash chain: valid, or the first `seq` that does not hold. */
        async verify(): Promise<AuditVerification> {
          return (await http.request('/ai/audit/verify', { ...site, schema: AuditVerificationResponse })).data;
        },
      },
      notices: {
        /** The latest calls that ran with a notice (policy `warn`), newest first, with the site's event seq. */
        async list(): Promise<{ data: CopilotNotice[]; meta: { seq: number } }> {
          return http.request('/ai/notices', { ...site, schema: NoticeListResponse });
        },
      },
      policy: {
        async get(): Promise<CopilotPolicy> {
          return (await http.request('/ai/policy', { ...site, schema: PolicyResponse })).data;
        },
        async put(change: PutPolicyRequest): Promise<CopilotPolicy> {
          return (await http.request('/ai/policy', { ...site, method: 'PUT', body: change, schema: PolicyResponse })).data;
        },
      },
      approvals: {
        /** At most 100 approvals in one status, newest first; `meta.total` counts that status, `meta.seq` is the site's event seq. */
        async list({ status = 'pending' }: { status?: ApprovalStatus } = {}): Promise<ListApprovalsResponse> {
          return http.request('/ai/approvals', { ...site, query: { status }, schema: ListApprovalsResponse });
        },
        async get(id: string): Promise<ApprovalJson> {
          return (await http.request(`/ai/approvals/${segment(id)}`, { ...site, schema: ApprovalResponse })).data;
        },
        /** A new revision with edited arguments (or a plan's edited and removed steps), impacts taken again; nothing runs (409 if `revision` is not current). */
        async edit(id: string, body: { revision: number } & ApprovalEdit): Promise<ApprovalJson> {
          return (await http.request(`/ai/approvals/${segment(id)}`, { ...site, method: 'PATCH', body, schema: ApprovalResponse })).data;
        },
        /** 200 with the outcome (approved, rejected, or pending with lastError) or 202 with status `executing`. */
        async decide(
          id: string,
          { decision, reason, revision }: { decision: ApprovalDecision; reason?: string | undefined; revision?: number | undefined },
        ): Promise<ApprovalJson> {
          const body = { decision, ...(reason ? { reason } : {}), ...(revision !== undefined ? { revision } : {}) };
          const path = `/ai/approvals/${segment(id)}/decide`;
          return (await http.request(path, { ...site, method: 'POST', body, schema: ApprovalResponse })).data;
        },
      },
    },
    users: {
      /** Exact, case-insensitive email lookup; allowed with `users:write` in this site. */
      async findByEmail(email: string): Promise<UserView | undefined> {
        const { data } = await http.request('/users', { ...site, query: { email }, schema: UserListResponse });
        return data[0];
      },
    },
  };
}

export type SiteApi = ReturnType<typeof createSiteApi>;
