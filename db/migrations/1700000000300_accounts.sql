-- Up Migration
-- Portal accounts (issue 6): users, their memberships of organizations (= tenants),
-- sessions, invitations, e-mail verification / password reset tokens and OIDC identities.
--
-- A user is a global identity (one e-mail address, possibly several organizations); a
-- membership gives the user a role in one tenant; a session is a user logged in to one
-- tenant. Secrets (session tokens, invitation and account tokens) are stored as SHA-256
-- hex digests only; passwords as argon2id PHC strings.
--
-- Row-level security for tierwise_app:
--   tenant rows (memberships, sessions, invitations): tenant_id = current_tenant_id(), and
--     a user's own memberships and sessions under current_user_id() (to list one's
--     organizations and to log out everywhere);
--   users: the user itself; read-only, the members of the current tenant;
--   account_tokens, oidc_identities: only the user's own, under current_user_id().
-- Look-ups made before the user or tenant is known (login, session cookie, tokens in mail
-- links, OIDC subject) go through the SECURITY DEFINER functions at the end.

CREATE FUNCTION current_user_id() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('tierwise.user_id', true), '')::uuid $$;

CREATE TABLE users (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email              text NOT NULL UNIQUE CHECK (email = lower(email) AND email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
  display_name       text NOT NULL,
  -- argon2id PHC string ($argon2id$v=19$m=..,t=..,p=..$salt$hash); NULL: OIDC only.
  password_hash      text,
  email_verified_at  timestamptz,
  -- Consecutive failed password logins and the lockout they caused (login throttling).
  failed_login_count integer NOT NULL DEFAULT 0,
  locked_until       timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

-- A login: removing the membership ends its sessions (foreign key cascade). The role is
-- read from the membership on every request, so a role change applies at once.
CREATE TABLE sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id     uuid NOT NULL,
  user_id       uuid NOT NULL,
  token_sha256  text NOT NULL UNIQUE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  -- Absolute expiry; the idle expiry is last_seen_at + the api's idle timeout.
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz,
  ip            text,
  user_agent    text,
  FOREIGN KEY (tenant_id, user_id) REFERENCES memberships (tenant_id, user_id) ON DELETE CASCADE
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE invitations (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id     uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  email         text NOT NULL CHECK (email = lower(email)),
  role          text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  token_sha256  text NOT NULL UNIQUE,
  invited_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  accepted_at   timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX invitations_tenant ON invitations (tenant_id);

-- Single-use tokens sent by e-mail: 'verify-email' and 'reset-password'.
CREATE TABLE account_tokens (
  token_sha256  text PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose       text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz
);
CREATE INDEX account_tokens_user ON account_tokens (user_id);

-- An OpenID Connect identity (issuer + subject, OIDC Core 1.0 section 2) linked to a user.
CREATE TABLE oidc_identities (
  issuer      text NOT NULL,
  subject     text NOT NULL,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oidc_identities_user ON oidc_identities (user_id);

ALTER TABLE users ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_user ON users USING (id = current_user_id()) WITH CHECK (id = current_user_id());
CREATE POLICY tenant_members ON users FOR SELECT
  USING (id IN (SELECT m.user_id FROM memberships m WHERE m.tenant_id = current_tenant_id()));

ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memberships
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
CREATE POLICY own_memberships ON memberships FOR SELECT USING (user_id = current_user_id());

ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sessions
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
CREATE POLICY own_sessions ON sessions USING (user_id = current_user_id()) WITH CHECK (user_id = current_user_id());

ALTER TABLE invitations ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invitations
  USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());

ALTER TABLE account_tokens ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_tokens ON account_tokens USING (user_id = current_user_id()) WITH CHECK (user_id = current_user_id());

ALTER TABLE oidc_identities ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_identities ON oidc_identities USING (user_id = current_user_id()) WITH CHECK (user_id = current_user_id());

-- The organizations a user belongs to (names shown at login and in the organization switcher).
CREATE POLICY member_of ON tenants FOR SELECT
  USING (id IN (SELECT m.tenant_id FROM memberships m WHERE m.user_id = current_user_id()));

-- A new organization is created by its first owner (sign-up): tierwise.tenant_id is set to
-- the new id in that transaction (the spine's policy on tenants covers the INSERT).

-- Login by e-mail: the user's credentials and throttling state, before the user is known.
CREATE FUNCTION find_login(p_email text)
  RETURNS TABLE (user_id uuid, password_hash text, email_verified boolean,
                 failed_login_count integer, locked_until timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, password_hash, email_verified_at IS NOT NULL, failed_login_count, locked_until
          FROM users WHERE email = lower(p_email) $$;

-- A session cookie: the live session (not revoked, before its absolute expiry, seen within
-- p_idle_seconds) with the member's current role; stamps last_seen_at.
CREATE FUNCTION authenticate_session(p_token_sha256 text, p_idle_seconds integer)
  RETURNS TABLE (session_id uuid, user_id uuid, tenant_id uuid, role text, expires_at timestamptz)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$ UPDATE sessions s SET last_seen_at = now()
          FROM memberships m
         WHERE s.token_sha256 = p_token_sha256 AND s.revoked_at IS NULL AND s.expires_at > now()
           AND s.last_seen_at > now() - make_interval(secs => p_idle_seconds)
           AND m.tenant_id = s.tenant_id AND m.user_id = s.user_id
        RETURNING s.id, s.user_id, s.tenant_id, m.role, s.expires_at $$;

-- A token from an e-mail link: marks it used and returns its user, once, before expiry.
CREATE FUNCTION consume_account_token(p_token_sha256 text, p_purpose text)
  RETURNS TABLE (user_id uuid)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
  AS $$ UPDATE account_tokens SET used_at = now()
         WHERE token_sha256 = p_token_sha256 AND purpose = p_purpose
           AND used_at IS NULL AND expires_at > now()
        RETURNING user_id $$;

-- An invitation link: the pending invitation (not accepted, revoked or expired).
CREATE FUNCTION find_invitation(p_token_sha256 text)
  RETURNS TABLE (invitation_id uuid, tenant_id uuid, email text, role text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, tenant_id, email, role FROM invitations
         WHERE token_sha256 = p_token_sha256 AND accepted_at IS NULL AND revoked_at IS NULL
           AND expires_at > now() $$;

-- OIDC login: the user linked to (issuer, subject), else the user with that e-mail address.
CREATE FUNCTION find_oidc_user(p_issuer text, p_subject text, p_email text)
  RETURNS TABLE (user_id uuid, linked boolean, email_verified boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ (SELECT u.id, true, u.email_verified_at IS NOT NULL FROM oidc_identities o JOIN users u ON u.id = o.user_id
          WHERE o.issuer = p_issuer AND o.subject = p_subject)
        UNION ALL
        (SELECT id, false, email_verified_at IS NOT NULL FROM users WHERE email = lower(p_email))
        ORDER BY 2 DESC LIMIT 1 $$;

REVOKE EXECUTE ON FUNCTION find_login(text), authenticate_session(text, integer), consume_account_token(text, text),
  find_invitation(text), find_oidc_user(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION current_user_id(), find_login(text), authenticate_session(text, integer),
  consume_account_token(text, text), find_invitation(text), find_oidc_user(text, text, text) TO tierwise_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON users, memberships, sessions, invitations, account_tokens, oidc_identities
  TO tierwise_app;

-- Down Migration
DROP POLICY IF EXISTS member_of ON tenants;
DROP FUNCTION IF EXISTS find_login(text), authenticate_session(text, integer), consume_account_token(text, text),
  find_invitation(text), find_oidc_user(text, text, text);
DROP TABLE IF EXISTS oidc_identities, account_tokens, invitations, sessions, memberships, users CASCADE;
DROP FUNCTION IF EXISTS current_user_id();
