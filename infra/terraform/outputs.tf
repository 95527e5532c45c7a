output "urls" {
  description = "Public URLs of the portal, the API and ingest."
  value       = module.services.urls
}

output "migrate_task_definition_arn" {
  description = "Run once per deploy before the services roll (see infra/terraform/README.md)."
  value       = module.services.migrate_task_definition_arn
}

output "flink_application_arn" {
  description = "The Managed Flink application of the stream jobs."
  value       = module.flink.application_arn
}
