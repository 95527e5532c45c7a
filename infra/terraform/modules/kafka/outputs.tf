output "bootstrap_brokers_sasl_scram" {
  description = "Comma-separated host:port list for SASL/SCRAM over TLS (TIERWISE_KAFKA_BROKERS)."
  value       = aws_msk_cluster.this.bootstrap_brokers_sasl_scram
}

output "scram_secret_arn" {
  description = "Secret holding {username, password} of the SCRAM user."
  value       = aws_secretsmanager_secret.scram.arn
}

output "scram_kms_key_arn" {
  description = "KMS key of the SCRAM secret (readers need kms:Decrypt on it)."
  value       = aws_kms_key.scram.arn
}

output "security_group_id" {
  description = "Security group of the brokers."
  value       = aws_security_group.this.id
}
