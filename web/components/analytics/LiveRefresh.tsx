"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

/** Seconds between refreshes of a live range: the rollup job writes 10 s windows about a second after they close. */
const PERIOD_SECONDS = 10;

/**
 * Live updates for recent ranges: re-renders the page's server components every 10 s (polling
 * the API through the page), with a pause button and a polite status for screen readers.
 */
export function LiveRefresh() {
  const router = useRouter();
  const [paused, setPaused] = useState(false);
  const [at, setAt] = useState<string | null>(null);
  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => {
      router.refresh();
      setAt(new Date().toISOString().slice(11, 19));
    }, PERIOD_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [paused, router]);
  return (
    <p className="live small" data-testid="live">
      <span role="status" aria-live="polite">
        {paused ? "Live updates paused" : `Live: refreshes every ${PERIOD_SECONDS} s${at ? `, last at ${at} UTC` : ""}`}
      </span>{" "}
      <button type="button" onClick={() => setPaused(!paused)} aria-pressed={paused}>
        {paused ? "Resume" : "Pause"}
      </button>
    </p>
  );
}
