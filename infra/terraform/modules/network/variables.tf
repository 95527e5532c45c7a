variable "name" {
  description = "Name prefix of every resource, e.g. tierwise-production."
  type        = string
}

variable "cidr_block" {
  description = "IPv4 CIDR of the VPC; /16 leaves room for the /24 subnets carved from it."
  type        = string
  default     = "10.40.0.0/16"

  validation {
    condition     = can(cidrhost(var.cidr_block, 0)) && tonumber(split("/", var.cidr_block)[1]) <= 16
    error_message = "cidr_block must be an IPv4 CIDR of /16 or larger."
  }
}

variable "az_count" {
  description = "Availability zones to spread subnets over (MSK needs 2 or 3; RDS Multi-AZ needs 2)."
  type        = number
  default     = 3

  validation {
    condition     = var.az_count >= 2 && var.az_count <= 3
    error_message = "az_count must be 2 or 3."
  }
}

variable "single_nat_gateway" {
  description = "One NAT gateway for all AZs (cheaper, not AZ-fault-tolerant) instead of one per AZ."
  type        = bool
  default     = false
}
