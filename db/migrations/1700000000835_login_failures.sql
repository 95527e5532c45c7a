-- Up Migration
-- Issue 16, finding 9: five wrong passwords locked a known account (429 "for this account") and
-- never an unknown one (401 forever), which told an attacker which addresses have accounts, and
-- let anyone lock the owner out. Failed logins now count per address and client IP, whether the
-- address has an account or not (the api's LoginThrottle, rate-limiter-flexible's
-- RateLimiterPostgres in this table's layout: its key is a SHA-256 of the address and the IP, so
-- no address is stored), and users carry no lock.

CREATE TABLE login_failures (
  key    varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint                      -- Unix epoch milliseconds
);
GRANT SELECT, INSERT, UPDATE, DELETE ON login_failures TO tierwise_app;

DROP FUNCTION find_login(text);
CREATE FUNCTION find_login(p_email text)
  RETURNS TABLE (user_id uuid, password_hash text, email_verified boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, password_hash, email_verified_at IS NOT NULL FROM users WHERE email = lower(p_email) $$;
REVOKE EXECUTE ON FUNCTION find_login(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION find_login(text) TO tierwise_app;

ALTER TABLE users DROP COLUMN failed_login_count, DROP COLUMN locked_until;

-- Down Migration
ALTER TABLE users ADD COLUMN failed_login_count integer NOT NULL DEFAULT 0, ADD COLUMN locked_until timestamptz;
DROP FUNCTION find_login(text);
CREATE FUNCTION find_login(p_email text)
  RETURNS TABLE (user_id uuid, password_hash text, email_verified boolean,
                 failed_login_count integer, locked_until timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id, password_hash, email_verified_at IS NOT NULL, failed_login_count, locked_until
          FROM users WHERE email = lower(p_email) $$;
REVOKE EXECUTE ON FUNCTION find_login(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION find_login(text) TO tierwise_app;
DROP TABLE login_failures;
