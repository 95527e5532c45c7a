import type { ErrorCode, PortalError } from "@/lib/errors";

const TITLES: Record<ErrorCode, { title: string; advice: string }> = {
  config_missing: {
    title: "The portal is not configured",
    advice: "Set the variable in the environment of the portal server (npm run -w @tierwise/web start); infra/local/env.sh sets TIERWISE_API_URL.",
  },
  config_invalid: {
    title: "The portal's configuration is invalid",
    advice: "Fix the variable in the environment of the portal server and restart it.",
  },
  api_unreachable: { title: "The Tierwise API is not reachable", advice: "Check that the API is running and TIERWISE_API_URL points at it." },
  unauthorized: { title: "You are not signed in", advice: "Your session ended; sign in again." },
  forbidden: { title: "Not allowed", advice: "Ask an owner or admin of this tenant for access." },
  not_found: { title: "Not found", advice: "It may have been removed." },
  conflict: { title: "That clashes with the current state", advice: "Reload the page and try again." },
  throttled: { title: "Too many attempts", advice: "Wait a little and try again." },
  bad_response: { title: "The API sent something unexpected", advice: "The portal and the API disagree on the contract; check their versions." },
  api_error: { title: "The API reported an error", advice: "Try again; if it persists, quote the request id." },
  bad_request: { title: "That address is not valid", advice: "Start again from the volume list." },
};

/** Full-page explanation of a PortalError: title and advice by code, the specific message, request id. */
export function ErrorView({ error }: { error: PortalError }) {
  const { title, advice } = TITLES[error.code];
  return (
    <section className="error-view" role="alert" data-testid="error-view" data-error-code={error.code}>
      <h1>{title}</h1>
      <p className="error-view__message">{error.message}</p>
      <p>{advice}</p>
      {error.requestId && (
        <p className="muted">
          Request id: <code>{error.requestId}</code>
        </p>
      )}
      <p>
        <a href="/volumes">Back to volumes</a>
      </p>
    </section>
  );
}
