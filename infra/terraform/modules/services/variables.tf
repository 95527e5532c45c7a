variable "name" {
  description = "ECS cluster name and prefix of its resources."
  type        = string
}

variable "vpc_id" {
  description = "VPC of the load balancer's target groups."
  type        = string
}

variable "public_subnet_ids" {
  description = "Public subnets of the load balancer."
  type        = list(string)
}

variable "private_subnet_ids" {
  description = "Private subnets of the tasks."
  type        = list(string)
}

variable "alb_security_group_id" {
  description = "Security group of the load balancer (network module)."
  type        = string
}

variable "services_security_group_id" {
  description = "Security group of the tasks (network module)."
  type        = string
}

variable "domain_name" {
  description = "Portal host name, e.g. app.tierwise.io; api.<domain> and ingest.<domain> are derived."
  type        = string
}

variable "route53_zone_id" {
  description = "Route 53 hosted zone that holds domain_name (certificate validation and alias records)."
  type        = string
}

variable "services" {
  description = <<-EOT
    The long-running services by name: web, api and ingest get a host name on the load balancer;
    notifier runs without one. port is the container port (TIERWISE_<NAME>_PORT), health_path
    the target group's health check, secrets maps an environment variable to a Secrets Manager
    ARN (optionally ARN:json-key:: for one key of a JSON secret).
  EOT
  type = map(object({
    image         = string
    command       = optional(list(string))
    cpu           = number
    memory_mib    = number
    desired_count = number
    port          = optional(number)
    health_path   = optional(string, "/healthz")
    environment   = map(string)
    secrets       = map(string)
  }))

  validation {
    condition     = alltrue([for name in ["web", "api", "ingest", "notifier"] : contains(keys(var.services), name)])
    error_message = "services must define web, api, ingest and notifier."
  }
}

variable "migrate" {
  description = "The one-off migrate task (node-pg-migrate as tierwise_owner), same shape as a service."
  type = object({
    image         = string
    command       = optional(list(string))
    cpu           = number
    memory_mib    = number
    desired_count = optional(number, 0)
    port          = optional(number)
    health_path   = optional(string)
    environment   = map(string)
    secrets       = map(string)
  })
}

variable "kms_key_arns" {
  description = "Customer-managed KMS keys of the secrets the tasks read."
  type        = list(string)
  default     = []
}

variable "log_retention_days" {
  description = "Days of container logs in CloudWatch."
  type        = number
  default     = 30
}
