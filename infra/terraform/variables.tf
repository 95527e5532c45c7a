variable "region" {
  description = "AWS region of the environment."
  type        = string
}

variable "environment" {
  description = "Environment name (staging, production); resources are named tierwise-<environment>."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,20}$", var.environment))
    error_message = "environment must be 2 to 21 lower-case letters, digits or dashes, starting with a letter."
  }
}

variable "production" {
  description = "Production safeguards: Multi-AZ database, deletion protection, secret recovery window."
  type        = bool
}

variable "domain_name" {
  description = "Portal host name; api.<domain_name> and ingest.<domain_name> are derived."
  type        = string
}

variable "mail_domain_name" {
  description = "Domain the notifier sends e-mail from (an SES identity in the same zone)."
  type        = string
}

variable "route53_zone_id" {
  description = "Route 53 hosted zone of domain_name and mail_domain_name."
  type        = string
}

variable "image_repository" {
  description = "Registry prefix of the service images, e.g. 123456789012.dkr.ecr.eu-west-1.amazonaws.com/tierwise (images <prefix>/<service>:<tag>)."
  type        = string
}

variable "image_tag" {
  description = "Tag of every service image (the release's git commit)."
  type        = string
}

variable "stream_jobs_jar_path" {
  description = "Path of the built jobs jar, relative to infra/terraform."
  type        = string
  default     = "../../stream-jobs/target/tierwise-stream-jobs.jar"
}

variable "flink_runtime_environment" {
  description = "Managed Flink runtime (a Flink 2.x runtime, e.g. FLINK-2_2)."
  type        = string
}

variable "flink_parallelism" {
  description = "Parallelism of the Flink jobs."
  type        = number
  default     = 2
}

variable "vpc_cidr_block" {
  description = "CIDR of the environment's VPC."
  type        = string
  default     = "10.40.0.0/16"
}

variable "az_count" {
  description = "Availability zones used (2 or 3)."
  type        = number
  default     = 3
}

variable "single_nat_gateway" {
  description = "One NAT gateway for all AZs (cheaper) instead of one per AZ."
  type        = bool
  default     = false
}

variable "database_instance_class" {
  description = "RDS instance class of PostgreSQL."
  type        = string
  default     = "db.m7g.large"
}

variable "kafka_broker_count" {
  description = "MSK brokers (a multiple of az_count)."
  type        = number
  default     = 3
}

variable "kafka_broker_instance_type" {
  description = "MSK broker instance type."
  type        = string
  default     = "kafka.m7g.large"
}

variable "service_desired_count" {
  description = "Tasks of each of ingest, api and web."
  type        = number
  default     = 2
}

variable "otlp_endpoint" {
  description = "OTLP/HTTP endpoint of an OpenTelemetry Collector for Tierwise's own traces and metrics (OTEL_EXPORTER_OTLP_ENDPOINT of every service and of the jobs); empty: none."
  type        = string
  default     = ""
}
