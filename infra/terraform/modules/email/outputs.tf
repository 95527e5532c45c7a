output "smtp_url_secret_arn" {
  description = "Secret holding the notifier's TIERWISE_SMTP_URL."
  value       = aws_secretsmanager_secret.smtp_url.arn
}

output "from_address" {
  description = "Default From address (TIERWISE_MAIL_FROM)."
  value       = "Tierwise <notifications@${var.domain_name}>"
}
