output "secret_arns" {
  description = "ARN of each generated secret by key (pg-app-password, pg-jobs-password, session-secret, unsubscribe-secret, channel-secrets-key)."
  value       = { for key, secret in aws_secretsmanager_secret.generated : key => secret.arn }
}
