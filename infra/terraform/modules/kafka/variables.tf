variable "name" {
  description = "Cluster name and prefix of its resources."
  type        = string
}

variable "vpc_id" {
  description = "VPC of the brokers."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets, one per AZ; broker_count must be a multiple of their number."
  type        = list(string)
}

variable "allowed_security_group_ids" {
  description = "Security groups allowed to reach the brokers (ingest, Managed Flink)."
  type        = list(string)
}

variable "kafka_version" {
  description = "Apache Kafka version offered by MSK (clients are tested against Kafka 4.x brokers locally)."
  type        = string
  default     = "3.9.x"
}

variable "broker_count" {
  description = "Number of brokers (a multiple of the number of subnets)."
  type        = number
  default     = 3
}

variable "broker_instance_type" {
  description = "MSK broker instance type."
  type        = string
  default     = "kafka.m7g.large"
}

variable "broker_storage_gib" {
  description = "EBS storage per broker, GiB."
  type        = number
  default     = 500
}

variable "retention_hours" {
  description = "Hours a telemetry record is kept; the Flink jobs rebuild state from the retained topics after a state-version bump, so keep at least the longest working-set window (7 d)."
  type        = number
  default     = 192
}
