import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { type Page, paginate } from './pagination.js';

type Schemas = components['schemas'];
/** The query parameters of GET `P`. */
type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
/** A list query without the cursor (the iterators drive it). */
type IterateQuery<Q> = Omit<Q, 'cursor'>;

export type FleetSummary = Schemas['FleetSummaryDto'];
export type Host = Schemas['HostDto'];
export type HostWorkingSet = Schemas['HostWorkingSetDto'];
export type Cluster = Schemas['ClusterDto'];
export type ClusterWorkingSet = Schemas['ClusterWorkingSetDto'];
export type VolumeSummary = Schemas['VolumeSummaryDto'];
export type VolumeDetail = Schemas['VolumeDetailDto'];
export type Workload = Schemas['WorkloadDto'];
export type PolicyEffect = Schemas['PolicyEffectDto'];
export type Policy = Schemas['PolicyDto'];
export type DesiredPolicy = NonNullable<paths['/v1/volumes/{volumeId}/policy']['put']['requestBody']>['content']['application/json'];
export type Recommendation = Schemas['RecommendationItemDto'];
export type AppliedRecommendation = Schemas['AppliedRecommendationDto'];
export type RecommendationHistoryEntry = Schemas['RecommendationHistoryItemDto'];
export type ApplyOptions = NonNullable<paths['/v1/recommendations/{volumeId}/apply']['post']['requestBody']>['content']['application/json'];
export type ApiKey = Schemas['ApiKeyDto'];
export type CreatedApiKey = Schemas['CreatedApiKeyDto'];
export type AuditEntry = Schemas['AuditEntryDto'];
export type Agent = Schemas['AgentDto'];
export type EnrollmentToken = Schemas['EnrollmentTokenDto'];
export type CreatedEnrollmentToken = Schemas['CreatedEnrollmentTokenDto'];
export type CreateEnrollmentToken = NonNullable<paths['/v1/enrollment-tokens']['post']['requestBody']>['content']['application/json'];
export type SearchResult = Schemas['SearchResultDto'];
export type SearchResults = Schemas['SearchResultsDto'];

export type HostListQuery = QueryOf<'/v1/hosts'>;
export type ClusterListQuery = QueryOf<'/v1/clusters'>;
export type VolumeListQuery = QueryOf<'/v1/volumes'>;
export type RecommendationListQuery = QueryOf<'/v1/recommendations'>;
export type RecommendationHistoryQuery = QueryOf<'/v1/volumes/{volumeId}/recommendations/history'>;
export type ApiKeyListQuery = QueryOf<'/v1/api-keys'>;
export type AuditListQuery = QueryOf<'/v1/audit-log'>;
export type AgentListQuery = QueryOf<'/v1/agents'>;
export type EnrollmentTokenListQuery = QueryOf<'/v1/enrollment-tokens'>;
export type MetricsExportQuery = QueryOf<'/v1/volumes/{volumeId}/metrics/export'>;
export type WorkloadQuery = QueryOf<'/v1/volumes/{volumeId}/workload'>;
export type FioJobQuery = QueryOf<'/v1/volumes/{volumeId}/fio-job'>;
/** Options of a search besides its text. */
export type SearchOptions = Omit<QueryOf<'/v1/search'>, 'q'>;

/** Options of a POST: the Idempotency-Key (default: a new UUID, so the SDK's own retries are safe). */
export interface PostOptions {
  idempotencyKey?: string;
}

/** The header parameters of a POST with `options`. */
const idempotent = (options: PostOptions): { 'Idempotency-Key': string } => ({ 'Idempotency-Key': options.idempotencyKey ?? randomUUID() });

export interface TierwiseOptions {
  /** A tenant API key (twk_...). */
  apiKey: string;
  /** Base URL of the api, e.g. http://127.0.0.1:8080 (no trailing /v1). */
  baseUrl: string;
  /** fetch to use (default: the global fetch). */
  fetch?: typeof fetch;
  /** Sent as User-Agent; shows in the audit log. */
  userAgent?: string;
}

/** What openapi-fetch answers. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a 2xx answer. @throws TierwiseApiError (its subclass for the status) otherwise. */
async function unwrap<T>(result: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await result;
  if (!response.ok) {
    throw errorFromResponse(response, error);
  }
  return data as T;
}

/**
 * The Tierwise api client: one namespace per resource, typed from the OpenAPI document
 * (openapi-typescript + openapi-fetch). Every method resolves to the answer's body and rejects
 * with a {@link TierwiseApiError} subclass (BadRequestError, AuthenticationError, ...,
 * RateLimitError, InternalServerError) carrying the request id and the raw Response. Lists
 * have `list` (one page) and `iterate` (every item, page after page).
 */
export class Tierwise {
  /** The underlying openapi-fetch client, for calls the namespaces do not cover. */
  readonly raw: Client<paths>;

  constructor(options: TierwiseOptions) {
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: options.fetch,
      headers: { authorization: `Bearer ${options.apiKey}`, 'user-agent': options.userAgent ?? 'tierwise-sdk-typescript/0.1.0' },
    });
  }

  /**
   * The tenant's volumes and hosts whose display name contains `q` (case-insensitive, % and _
   * literal) or whose id starts with it, best first (exact name, name prefix, id prefix, then
   * the rest); at most `limit` (default 20, at most 50).
   */
  readonly search = (q: string, options: SearchOptions = {}): Promise<SearchResults> => unwrap(this.raw.GET('/v1/search', { params: { query: { ...options, q } } }));

  readonly fleet = {
    /** Inventory counts and I/O totals of the tenant. */
    summary: (): Promise<FleetSummary> => unwrap(this.raw.GET('/v1/fleet/summary')),
  };

  readonly hosts = {
    list: (query: HostListQuery = {}): Promise<Page<Host>> => unwrap(this.raw.GET('/v1/hosts', { params: { query } })),
    iterate: (query: IterateQuery<HostListQuery> = {}): AsyncGenerator<Host> => paginate((cursor) => this.hosts.list({ ...query, cursor })),
    /** The tier the host's volumes share: their merged stream's working set and every policy's curve per window, and the tier recommended from it. */
    workingSet: (hostId: string): Promise<HostWorkingSet> => unwrap(this.raw.GET('/v1/hosts/{hostId}/working-set', { params: { path: { hostId } } })),
  };

  /** Clusters: hosts sharing a tier, whose volumes' sampled references are merged in time order. */
  readonly clusters = {
    list: (query: ClusterListQuery = {}): Promise<Page<Cluster>> => unwrap(this.raw.GET('/v1/clusters', { params: { query } })),
    iterate: (query: IterateQuery<ClusterListQuery> = {}): AsyncGenerator<Cluster> => paginate((cursor) => this.clusters.list({ ...query, cursor })),
    /** The cluster's working set and LRU miss ratio curve over each window (1h, 24h, 7d, all). */
    workingSet: (clusterId: string): Promise<ClusterWorkingSet> =>
      unwrap(this.raw.GET('/v1/clusters/{clusterId}/working-set', { params: { path: { clusterId } } })),
  };

  readonly volumes = {
    list: (query: VolumeListQuery = {}): Promise<Page<VolumeSummary>> => unwrap(this.raw.GET('/v1/volumes', { params: { query } })),
    iterate: (query: IterateQuery<VolumeListQuery> = {}): AsyncGenerator<VolumeSummary> => paginate((cursor) => this.volumes.list({ ...query, cursor })),
    get: (volumeId: string): Promise<VolumeDetail> => unwrap(this.raw.GET('/v1/volumes/{volumeId}', { params: { path: { volumeId } } })),
    /** The desired cache policy and the version the agent applied. */
    getPolicy: (volumeId: string): Promise<Policy> => unwrap(this.raw.GET('/v1/volumes/{volumeId}/policy', { params: { path: { volumeId } } })),
    /** Sets the desired cache policy: a new version. */
    setPolicy: (volumeId: string, policy: DesiredPolicy): Promise<Policy> =>
      unwrap(this.raw.PUT('/v1/volumes/{volumeId}/policy', { params: { path: { volumeId } }, body: policy })),
    /** The 10-second interval metrics over [from, to) (at most 7 days) as CSV text with a header line. */
    exportMetricsCsv: (volumeId: string, query: MetricsExportQuery = {}): Promise<string> =>
      unwrap(this.raw.GET('/v1/volumes/{volumeId}/metrics/export', { params: { path: { volumeId }, query }, parseAs: 'text' })) as Promise<string>,
    /** The vscsiStats histograms (seek distance, outstanding I/Os, interarrival) over [from, to), default the last 24 hours, and how random the I/O is. */
    workload: (volumeId: string, query: WorkloadQuery = {}): Promise<Workload> =>
      unwrap(this.raw.GET('/v1/volumes/{volumeId}/workload', { params: { path: { volumeId }, query } })),
    /** An fio job file replaying the volume's measured mix over [from, to) (default the last 24 hours); rate 'false': unpaced. */
    fioJob: (volumeId: string, query: FioJobQuery = {}): Promise<string> =>
      unwrap(this.raw.GET('/v1/volumes/{volumeId}/fio-job', { params: { path: { volumeId }, query }, parseAs: 'text' })) as Promise<string>,
    /** How latency and CPU moved across the latest applied policy change (storage-bound CPU): both sides, a verdict and one sentence. */
    policyEffect: (volumeId: string): Promise<PolicyEffect> =>
      unwrap(this.raw.GET('/v1/volumes/{volumeId}/policy-effect', { params: { path: { volumeId } } })),
  };

  readonly recommendations = {
    list: (query: RecommendationListQuery = {}): Promise<Page<Recommendation>> => unwrap(this.raw.GET('/v1/recommendations', { params: { query } })),
    iterate: (query: IterateQuery<RecommendationListQuery> = {}): AsyncGenerator<Recommendation> =>
      paginate((cursor) => this.recommendations.list({ ...query, cursor })),
    get: (volumeId: string): Promise<Recommendation> => unwrap(this.raw.GET('/v1/recommendations/{volumeId}', { params: { path: { volumeId } } })),
    /** The volume's past predictions, newest first, each with the hit ratio measured while it ran (null until measured). */
    history: (volumeId: string, query: RecommendationHistoryQuery = {}): Promise<Page<RecommendationHistoryEntry>> =>
      unwrap(this.raw.GET('/v1/volumes/{volumeId}/recommendations/history', { params: { path: { volumeId }, query } })),
    iterateHistory: (volumeId: string, query: IterateQuery<RecommendationHistoryQuery> = {}): AsyncGenerator<RecommendationHistoryEntry> =>
      paginate((cursor) => this.recommendations.history(volumeId, { ...query, cursor })),
    /** Applies the volume's recommendation: it becomes the volume's desired policy. */
    apply: (volumeId: string, choice: ApplyOptions = {}, options: PostOptions = {}): Promise<AppliedRecommendation> =>
      unwrap(this.raw.POST('/v1/recommendations/{volumeId}/apply', { params: { path: { volumeId }, header: idempotent(options) }, body: choice })),
    dismiss: (volumeId: string, reason?: string, options: PostOptions = {}): Promise<Recommendation> =>
      unwrap(
        this.raw.POST('/v1/recommendations/{volumeId}/dismiss', { params: { path: { volumeId }, header: idempotent(options) }, body: reason === undefined ? {} : { reason } }),
      ),
  };

  readonly apiKeys = {
    /** Creates a key; the answer's `key` is the only time the secret is shown. */
    create: (key: { name: string; scope: 'read' | 'read-write' }, options: PostOptions = {}): Promise<CreatedApiKey> =>
      unwrap(this.raw.POST('/v1/api-keys', { params: { header: idempotent(options) }, body: key })),
    list: (query: ApiKeyListQuery = {}): Promise<Page<ApiKey>> => unwrap(this.raw.GET('/v1/api-keys', { params: { query } })),
    iterate: (query: IterateQuery<ApiKeyListQuery> = {}): AsyncGenerator<ApiKey> => paginate((cursor) => this.apiKeys.list({ ...query, cursor })),
    /** Revokes a key: refused from the next request on. */
    revoke: (apiKeyId: string): Promise<ApiKey> => unwrap(this.raw.DELETE('/v1/api-keys/{apiKeyId}', { params: { path: { apiKeyId } } })),
  };

  readonly agents = {
    /** Agents with the health they last reported (version, uptime, tier usage, errors). */
    list: (query: AgentListQuery = {}): Promise<Page<Agent>> => unwrap(this.raw.GET('/v1/agents', { params: { query } })),
    iterate: (query: IterateQuery<AgentListQuery> = {}): AsyncGenerator<Agent> => paginate((cursor) => this.agents.list({ ...query, cursor })),
    get: (agentId: string): Promise<Agent> => unwrap(this.raw.GET('/v1/agents/{agentId}', { params: { path: { agentId } } })),
    /** Revokes an agent: ingest refuses its next batch (401 agent_revoked). */
    revoke: (agentId: string): Promise<Agent> => unwrap(this.raw.DELETE('/v1/agents/{agentId}', { params: { path: { agentId } } })),
  };

  readonly enrollmentTokens = {
    /** Creates a single-use token for `install.sh --token` (default lifetime 24 h); the answer's `token` is the only time it is shown. */
    create: (token: CreateEnrollmentToken = {}, options: PostOptions = {}): Promise<CreatedEnrollmentToken> =>
      unwrap(this.raw.POST('/v1/enrollment-tokens', { params: { header: idempotent(options) }, body: token })),
    list: (query: EnrollmentTokenListQuery = {}): Promise<Page<EnrollmentToken>> => unwrap(this.raw.GET('/v1/enrollment-tokens', { params: { query } })),
    iterate: (query: IterateQuery<EnrollmentTokenListQuery> = {}): AsyncGenerator<EnrollmentToken> =>
      paginate((cursor) => this.enrollmentTokens.list({ ...query, cursor })),
    /** Deletes a token: it enrolls nothing from now on. */
    delete: (enrollmentTokenId: string): Promise<EnrollmentToken> =>
      unwrap(this.raw.DELETE('/v1/enrollment-tokens/{enrollmentTokenId}', { params: { path: { enrollmentTokenId } } })),
  };

  readonly auditLog = {
    list: (query: AuditListQuery = {}): Promise<Page<AuditEntry>> => unwrap(this.raw.GET('/v1/audit-log', { params: { query } })),
    iterate: (query: IterateQuery<AuditListQuery> = {}): AsyncGenerator<AuditEntry> => paginate((cursor) => this.auditLog.list({ ...query, cursor })),
  };
}
