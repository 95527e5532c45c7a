/**
 * Apply / Dismiss of a recommendation. Changes need the signed-in user's session (portal login,
 * branch i7-portal-auth); until it is merged the portal reads through a read-only API key and
 * shows the state only.
 */
export function RecommendationDecision({ status }: { volumeId: string; createdAt: string; status: string }) {
  return (
    <p className="muted small" data-testid="decision-unavailable">
      {status === "open" ? "Apply or dismiss needs a signed-in admin." : `This recommendation is ${status}.`}
    </p>
  );
}
