variable "name" {
  description = "Name prefix of the secrets, e.g. tierwise-production (secrets are <name>/<key>)."
  type        = string
}

variable "kms_key_arn" {
  description = "KMS key that encrypts the secrets (null: the AWS-managed aws/secretsmanager key)."
  type        = string
  default     = null
}

variable "recovery_window_in_days" {
  description = "Days a deleted secret can still be restored (0 deletes at once; 7 to 30 otherwise)."
  type        = number
  default     = 30
}
