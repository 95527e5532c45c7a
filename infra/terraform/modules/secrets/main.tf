# Secrets of one environment in AWS Secrets Manager, generated here and never
# written to a tfvars file. The ECS tasks read them as container secrets; the
# database roles' passwords are set by the migrate task from the same values.

locals {
  generated = {
    "pg-app-password"     = "Password of the tierwise_app role (api, ingest; row-level security applies)."
    "pg-jobs-password"    = "Password of the tierwise_jobs role (Flink jobs, notifier)."
    "session-secret"      = "Key that signs portal session and CSRF cookies."
    "unsubscribe-secret"  = "Key that signs the unsubscribe links of notification e-mails."
    "channel-secrets-key" = "Key that encrypts tenants' Slack tokens and webhook URLs at rest."
  }
}

resource "random_password" "generated" {
  for_each = local.generated

  length  = 48
  special = false
}

resource "aws_secretsmanager_secret" "generated" {
  for_each = local.generated

  name                    = "${var.name}/${each.key}"
  description             = each.value
  kms_key_id              = var.kms_key_arn
  recovery_window_in_days = var.recovery_window_in_days
}

resource "aws_secretsmanager_secret_version" "generated" {
  for_each = local.generated

  secret_id     = aws_secretsmanager_secret.generated[each.key].id
  secret_string = random_password.generated[each.key].result
}
