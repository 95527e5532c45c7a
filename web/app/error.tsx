"use client";

/**
 * Last-resort error boundary for failures that are not PortalErrors (those render their own
 * explanation). Production builds hide the message; the digest matches the server log line.
 */
export default function UnexpectedError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="error-view" role="alert" data-testid="error-view" data-error-code="unexpected">
      <h1>Something went wrong</h1>
      <p>The page failed to render. The server log has the details{error.digest ? ` under digest ${error.digest}` : ""}.</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </p>
    </section>
  );
}
