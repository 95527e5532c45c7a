variable "name" {
  description = "Identifier of the instance and prefix of its resources."
  type        = string
}

variable "vpc_id" {
  description = "VPC of the instance."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets (at least two AZs) of the DB subnet group."
  type        = list(string)
}

variable "allowed_security_group_ids" {
  description = "Security groups allowed to connect on 5432 (ECS services, Managed Flink, migrate task)."
  type        = list(string)
}

variable "engine_version" {
  description = "PostgreSQL major.minor on RDS; the schema is tested on 15 and uses nothing newer."
  type        = string
  default     = "16.6"
}

variable "instance_class" {
  description = "RDS instance class."
  type        = string
  default     = "db.m7g.large"
}

variable "allocated_storage_gib" {
  description = "Initial gp3 storage, GiB."
  type        = number
  default     = 100
}

variable "max_allocated_storage_gib" {
  description = "Storage autoscaling ceiling, GiB."
  type        = number
  default     = 1000
}

variable "multi_az" {
  description = "Standby in a second AZ with synchronous replication."
  type        = bool
  default     = true
}

variable "backup_retention_days" {
  description = "Days of automated backups (point-in-time recovery window)."
  type        = number
  default     = 14
}

variable "deletion_protection" {
  description = "Refuse deletion and take a final snapshot (turn off only for throwaway environments)."
  type        = bool
  default     = true
}
