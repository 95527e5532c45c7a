/** Labelled inputs of the account forms (each input has a visible label and an autocomplete hint). */

export function EmailField({ name = "email", label = "E-mail address" }: { name?: string; label?: string }) {
  return (
    <label>
      {label}
      <input name={name} type="email" autoComplete="email" required maxLength={254} />
    </label>
  );
}

/** A password input; `isNew` asks the browser's password manager for a new one and enforces the API's 12 characters. */
export function PasswordField({ isNew = false, label = "Password" }: { isNew?: boolean; label?: string }) {
  return (
    <label>
      {label}
      <input
        name="password"
        type="password"
        required
        minLength={isNew ? 12 : undefined}
        maxLength={256}
        autoComplete={isNew ? "new-password" : "current-password"}
        aria-describedby={isNew ? "password-hint" : undefined}
      />
      {isNew && (
        <span id="password-hint" className="hint">
          12 characters or more; a passphrase is easiest.
        </span>
      )}
    </label>
  );
}

/** The mail link's token, carried in a hidden field. */
export function TokenField({ token }: { token: string }) {
  return <input type="hidden" name="token" value={token} />;
}
