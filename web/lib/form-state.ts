/**
 * What a form's Server Action answers (rendered by components/ActionForm): success or the
 * problem in words, and optionally a secret shown exactly once (a new API key, an enrollment
 * token). Plain data, shared by server and client code.
 */
export interface FormState {
  ok: boolean;
  message: string;
  /** A value to show once with a copy hint, e.g. a new API key. */
  reveal?: { label: string; value: string };
}
