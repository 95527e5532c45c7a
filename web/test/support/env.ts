/**
 * The test-profile settings the test needs from infra/local/env.sh (TIERWISE_PROFILE=test),
 * which `./tierwise test` exports.
 * @throws Error naming every missing variable, or when the profile is not "test".
 */
export function testEnv() {
  const names = ["TIERWISE_PG_OWNER_URL", "TIERWISE_PG_APP_URL", "TIERWISE_API_PORT", "TIERWISE_API_URL", "TIERWISE_WEB_PORT", "TIERWISE_WEB_URL"] as const;
  const advice = "run it through ./tierwise test, or: export TIERWISE_PROFILE=test; source infra/local/env.sh";
  if (process.env.TIERWISE_PROFILE !== "test") {
    throw new Error(`TIERWISE_PROFILE must be "test" (got "${process.env.TIERWISE_PROFILE ?? ""}"); ${advice}`);
  }
  const missing = names.filter((n) => !process.env[n]);
  if (missing.length) throw new Error(`${missing.join(", ")} not set; ${advice}`);
  const env = Object.fromEntries(names.map((n) => [n, process.env[n]!])) as Record<(typeof names)[number], string>;
  return env;
}
