output "cluster_arn" {
  description = "ECS cluster of the services."
  value       = aws_ecs_cluster.this.arn
}

output "urls" {
  description = "Public HTTPS URL of each service with a host name."
  value       = { for name, host in local.hosts : name => "https://${host}" }
}

output "migrate_task_definition_arn" {
  description = "Task definition to run once per deploy before the services roll (aws ecs run-task)."
  value       = aws_ecs_task_definition.this["migrate"].arn
}

output "task_role_name" {
  description = "IAM role of the running containers (attach application permissions such as SES sending)."
  value       = aws_iam_role.task.name
}
