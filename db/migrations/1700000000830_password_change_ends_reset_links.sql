-- Up Migration
-- Issue 16, finding 10: an older password-reset link still worked after a newer one was used.
-- Whenever a user's password changes (a reset, or any later path), every reset link of theirs
-- still outstanding is spent with it.

CREATE FUNCTION spend_outstanding_reset_links() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
BEGIN
  UPDATE account_tokens SET used_at = now()
   WHERE user_id = NEW.id AND purpose = 'reset-password' AND used_at IS NULL;
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION spend_outstanding_reset_links() FROM PUBLIC;

CREATE TRIGGER users_password_changed
  AFTER UPDATE OF password_hash ON users
  FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash)
  EXECUTE FUNCTION spend_outstanding_reset_links();

-- Down Migration
DROP TRIGGER users_password_changed ON users;
DROP FUNCTION spend_outstanding_reset_links();
