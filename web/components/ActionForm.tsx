"use client";

import { useActionState, type ReactNode } from "react";
import type { FormState } from "@/lib/form-state";

/**
 * A form posting to a Server Action (works without JavaScript too), with its answer below:
 * the error in a role="alert" paragraph, a success in role="status", a one-time secret in a
 * read-only field the user can select and copy.
 */
export function ActionForm({
  action,
  submitLabel,
  children,
  testId,
  className = "form",
  danger = false,
}: {
  action: (previous: FormState | null, form: FormData) => Promise<FormState>;
  submitLabel: string;
  children?: ReactNode;
  testId?: string;
  className?: string;
  danger?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className={className} data-testid={testId} aria-busy={pending}>
      {children}
      <button type="submit" className={danger ? "button button--danger" : "button"} disabled={pending}>
        {submitLabel}
      </button>
      {state && (
        <p role={state.ok ? "status" : "alert"} className={state.ok ? "form-ok" : "form-error"} data-testid="form-message">
          {state.message}
        </p>
      )}
      {state?.reveal && (
        <label className="reveal">
          {state.reveal.label}
          <input readOnly value={state.reveal.value} data-testid="revealed-secret" onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
    </form>
  );
}
