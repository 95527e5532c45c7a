/**
 * The portal's zod schemas (lib/*-schemas.ts) against the types the SDK generates from the api's
 * OpenAPI document (issue 20: one contract): whatever the api may answer must satisfy what the
 * portal parses. Checked by the compiler (`tsc -p test/tsconfig.json`, in `npm run lint` and
 * before the tests): a field the api renames, drops or makes nullable fails the build here,
 * naming the schema.
 */
import type { components } from '@tierwise/sdk';
import type { z } from 'zod';
import type * as Accounts from '../lib/account-schemas.js';
import type * as Agents from '../lib/agent-schemas.js';
import type * as Analytics from '../lib/analytics-schemas.js';
import type * as Api from '../lib/api-schemas.js';
import type * as Workload from '../lib/workload-schemas.js';

type Dto<N extends keyof components['schemas']> = components['schemas'][N];
/** What a portal schema accepts as input (the answer, before any transform). */
type Parsed<S extends z.ZodType> = z.input<S>;
/** Compiles only when `Answer` (what the api sends) is assignable to `Parsed` (what the portal reads). */
type Accepts<Parsed, Answer extends Parsed> = Answer;

export type Contract = [
  Accepts<Parsed<typeof Api.FleetSummary>, Dto<'FleetSummaryDto'>>,
  Accepts<Parsed<typeof Api.VolumePage>, Dto<'VolumeListDto'>>,
  Accepts<Parsed<typeof Api.VolumeDetail>, Dto<'VolumeDetailDto'>>,
  Accepts<Parsed<typeof Api.SearchResults>, Dto<'SearchResultsDto'>>,
  Accepts<Parsed<typeof Analytics.Series>, Dto<'SeriesDto'>>,
  Accepts<Parsed<typeof Analytics.Overview>, Dto<'OverviewDto'>>,
  Accepts<Parsed<typeof Analytics.WorkingSetHistory>, Dto<'WorkingSetHistoryDto'>>,
  Accepts<Parsed<typeof Analytics.ClusterPage>, Dto<'ClusterPageDto'>>,
  Accepts<Parsed<typeof Analytics.ClusterWorkingSet>, Dto<'ClusterWorkingSetDto'>>,
  Accepts<Parsed<typeof Analytics.HostWorkingSet>, Dto<'HostWorkingSetDto'>>,
  Accepts<Parsed<typeof Analytics.RecommendationPage>, Dto<'RecommendationPageDto'>>,
  Accepts<Parsed<typeof Analytics.RecommendationItem>, Dto<'RecommendationItemDto'>>,
  Accepts<Parsed<typeof Analytics.RecommendationHistory>, Dto<'RecommendationHistoryPageDto'>>,
  Accepts<Parsed<typeof Analytics.Policy>, Dto<'PolicyDto'>>,
  Accepts<Parsed<typeof Analytics.PolicyEffect>, Dto<'PolicyEffectDto'>>,
  Accepts<Parsed<typeof Analytics.Benchmarks>, Dto<'BenchmarksDto'>>,
  Accepts<Parsed<typeof Workload.Workload>, Dto<'WorkloadDto'>>,
  Accepts<Parsed<typeof Agents.AgentPage>, Dto<'AgentPageDto'>>,
  Accepts<Parsed<typeof Agents.EnrollmentTokenPage>, Dto<'EnrollmentTokenPageDto'>>,
  Accepts<Parsed<typeof Accounts.MemberList>, Dto<'MemberListDto'>>,
  Accepts<Parsed<typeof Accounts.InvitationList>, Dto<'InvitationListDto'>>,
  Accepts<Parsed<typeof Accounts.ApiKey>, Dto<'ApiKeyDto'>>,
  Accepts<Parsed<typeof Accounts.AuditEntry>, Dto<'AuditEntryDto'>>,
  Accepts<Parsed<typeof Accounts.ChannelList>, Dto<'ChannelListDto'>>,
  Accepts<Parsed<typeof Accounts.RouteList>, Dto<'RouteListDto'>>,
  Accepts<Parsed<typeof Accounts.Delivery>, Dto<'DeliveryDto'>>,
];
