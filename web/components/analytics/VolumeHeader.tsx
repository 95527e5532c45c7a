import Link from "next/link";
import { ImportedBadge } from "@/components/ImportedBadge";
import type { VolumeDetail } from "@/lib/api-schemas";
import { FioJobForm } from "./FioJobForm";
import { VolumeTabs } from "./VolumeTabs";

/**
 * Crumbs, name (badged when imported from vscsiStats), ids, the fio job download over the page's
 * range and the view tabs of every volume drill-down page.
 */
export function VolumeHeader({ volume, current, keep }: { volume: VolumeDetail; current: string; keep: Record<string, string> }) {
  return (
    <>
      <p className="crumbs">
        <Link href="/volumes">Volumes</Link> / <Link href={{ pathname: `/hosts/${volume.host_id}`, query: keep }}>host</Link> /
      </p>
      <div className="volume-head">
        <h1 className="volume-title">
          {volume.display_name ?? <code title="pseudonymous volume id">{volume.volume_id}</code>}
        </h1>
        <ImportedBadge source={volume.source} />
        <FioJobForm volumeId={volume.volume_id} keep={keep} />
      </div>
      <p className="muted">
        Host {volume.host_display_name ? <>{volume.host_display_name} (<code>{volume.host_id}</code>)</> : <code>{volume.host_id}</code>}
        {volume.display_name && (
          <>
            {" · "}id <code>{volume.volume_id}</code>
          </>
        )}
      </p>
      <VolumeTabs volumeId={volume.volume_id} current={current} query={keep} />
    </>
  );
}
