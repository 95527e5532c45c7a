variable "name" {
  description = "Application name and prefix of its resources."
  type        = string
}

variable "security_group_id" {
  description = "Security group of the application's network interfaces (network module's flink group)."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets of the application."
  type        = list(string)
}

variable "jar_path" {
  description = "Local path of the shaded jobs jar (stream-jobs/target/tierwise-stream-jobs.jar), uploaded by content hash."
  type        = string
}

variable "runtime_environment" {
  description = "Managed Flink runtime, e.g. FLINK-2_2; must be a Flink 2.x runtime for the Flink 2.3 jar."
  type        = string

  validation {
    condition     = can(regex("^FLINK-[2-9]_[0-9]+$", var.runtime_environment))
    error_message = "runtime_environment must be a Flink 2.x or later runtime (FLINK-2_<minor>): the jobs jar is built against Flink 2.3."
  }
}

variable "job_properties" {
  description = "The runtime property group \"tierwise\": the jobs' settings by their variable names (docs/deployment.md), secrets as ARNs the job reads from Secrets Manager (TIERWISE_KAFKA_SASL_SECRET_ARN, PGPASSWORD_SECRET_ARN)."
  type        = map(string)
}

variable "secret_arns" {
  description = "Secrets the job may read (database password, Kafka SCRAM credentials)."
  type        = list(string)
}

variable "kms_key_arns" {
  description = "KMS keys of those secrets (kms:Decrypt)."
  type        = list(string)
  default     = []
}

variable "parallelism" {
  description = "Job parallelism (one Kafka partition per parallel subtask is the upper useful bound)."
  type        = number
  default     = 2
}

variable "auto_scaling" {
  description = "Let the service raise parallelism under load."
  type        = bool
  default     = true
}

variable "log_retention_days" {
  description = "Days of job logs in CloudWatch."
  type        = number
  default     = 30
}
