variable "name" {
  description = "Prefix of the SMTP user and secret."
  type        = string
}

variable "domain_name" {
  description = "Sending domain, e.g. tierwise.io (mail comes From: notifications@<domain>)."
  type        = string
}

variable "route53_zone_id" {
  description = "Route 53 hosted zone of domain_name (DKIM, MAIL FROM records)."
  type        = string
}
