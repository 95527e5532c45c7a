output "application_arn" {
  description = "ARN of the Managed Flink application."
  value       = aws_kinesisanalyticsv2_application.this.arn
}
